// Package readme runs the README's shell blocks as written, the way a
// newcomer would paste them.
package readme

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
)

// Every shell block of the README after the first runs, in order, in one
// fresh directory, with the mcpverdict built from this checkout on PATH and
// npx resolving the reference servers to the pinned copies: each command
// line must exit 0 or 1 (a verdict), or the status its "# exit N" comment
// names. The first block's `go run ./cmd/mcpverdict check` runs in the
// checkout, as its readers run it; its `scripts/test` is the command this
// test is part of.
func TestReadmeRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the README's commands against real servers")
	}
	peers.Require(t)
	root := moduleRoot()
	blocks, err := shellBlocks(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) < 3 {
		t.Fatalf("README.md has %d sh blocks; the newcomer block and at least two of use were expected", len(blocks))
	}
	t.Run("newcomer", func(t *testing.T) { runNewcomerBlock(t, root, blocks[0]) })
	env := readerEnv(t, root)
	dir := t.TempDir()
	for _, b := range blocks[1:] {
		t.Run(fmt.Sprintf("line%d", b.lines[0].number), func(t *testing.T) {
			runBlock(t, dir, env, b)
		})
	}
}

// runNewcomerBlock runs the go run line of the README's first block in the
// checkout, setting aside (and putting back) an output folder a developer
// already has there.
func runNewcomerBlock(t *testing.T, root string, b block) {
	var ran bool
	for _, l := range b.lines {
		if !strings.HasPrefix(l.text, "go run ./cmd/mcpverdict") {
			continue
		}
		ran = true
		out := filepath.Join(root, "mcpverdict-out")
		aside := out + fmt.Sprintf(".aside-%d", os.Getpid())
		if _, err := os.Stat(out); err == nil {
			if err := os.Rename(out, aside); err != nil {
				t.Fatal(err)
			}
		}
		t.Cleanup(func() {
			os.RemoveAll(out)
			os.Rename(aside, out)
		})
		s := script([]line{l})
		runScript(t, root, os.Environ(), s, b)
		if _, err := os.Stat(filepath.Join(out, "report.json")); err != nil {
			t.Errorf("README.md:%d: %s wrote no report in ./mcpverdict-out: %v", l.number, l.text, err)
		}
	}
	if !ran {
		t.Fatal("the README's first block no longer shows `go run ./cmd/mcpverdict ...`")
	}
}

func runBlock(t *testing.T, dir string, env []string, b block) {
	runScript(t, dir, env, script(b.lines), b)
}

func runScript(t *testing.T, dir string, env []string, s string, b block) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-c", s)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("README.md block at line %d failed (%v):\n%s", b.lines[0].number, err, out)
	}
}

// script is a bash program that runs each line as written and stops at the
// first whose exit status is not one the README allows.
func script(lines []line) string {
	var s strings.Builder
	s.WriteString("set -u -o pipefail\n")
	for _, l := range lines {
		fmt.Fprintf(&s, "%s\n", l.text)
		if strings.HasSuffix(strings.TrimSpace(l.command), "&") {
			continue
		}
		fmt.Fprintf(&s, "rc=$?; case $rc in %s) ;; *) echo \"README.md:%d: exit $rc from: \"%s >&2; exit 100;; esac\n",
			allowed(l), l.number, shellQuote(l.command))
	}
	return s.String()
}

var exitComment = regexp.MustCompile(`#\s*exit\s+(\d+)\s*$`)

func allowed(l line) string {
	if m := exitComment.FindStringSubmatch(l.text); m != nil {
		return m[1]
	}
	return "0|1"
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// readerEnv is a reader's environment: this checkout's mcpverdict on PATH,
// npx that serves the pinned reference servers and nothing else, a home of
// its own, and nothing that would make mcpverdict think it runs in a
// GitHub job.
func readerEnv(t *testing.T, root string) []string {
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "mcpverdict"), "./cmd/mcpverdict")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	shim := fmt.Sprintf(npxShim, filepath.Join(peers.Dir(), "node_modules", ".bin"))
	if err := os.WriteFile(filepath.Join(bin, "npx"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "PATH", name == "HOME", name == "CI",
			strings.HasPrefix(name, "GITHUB_"), strings.HasPrefix(name, "RUNNER_"),
			strings.HasPrefix(name, "ACTIONS_"), strings.HasPrefix(name, "MCPVERDICT_"):
			continue
		}
		env = append(env, kv)
	}
	return env
}

// npxShim stands in for npx with no network: the reference servers the
// README names run from the copies the lockfile pins; anything else is
// refused, so a README line that needs the registry fails here.
const npxShim = `#!/usr/bin/env bash
while [ "${1:-}" = -y ] || [ "${1:-}" = --yes ]; do shift; done
pkg=${1:-}; shift || true
case "$pkg" in
@modelcontextprotocol/server-everything*|@modelcontextprotocol/server-memory*|@modelcontextprotocol/server-filesystem*)
  name=${pkg#@modelcontextprotocol/}; name=${name%%@*}
  exec %s/mcp-"$name" "$@";;
esac
echo "npx (README test): only the pinned reference servers are available offline, not $pkg" >&2
exit 127
`

type line struct {
	number  int    // of the block's first physical line of this command
	text    string // continuation lines joined
	command string // text without its trailing comment
}

type block struct{ lines []line }

// shellBlocks reads the ```sh blocks of a Markdown page.
func shellBlocks(path string) ([]block, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var blocks []block
	var cur *block
	pending, start := "", 0
	for i, raw := range strings.Split(string(data), "\n") {
		n := i + 1
		switch {
		case cur == nil && strings.HasPrefix(raw, "```sh"):
			blocks = append(blocks, block{})
			cur = &blocks[len(blocks)-1]
			continue
		case cur != nil && strings.HasPrefix(raw, "```"):
			if pending != "" {
				return nil, fmt.Errorf("%s:%d: a continued line runs into the end of its block", path, start)
			}
			cur = nil
			continue
		case cur == nil:
			continue
		}
		text := strings.TrimSpace(raw)
		if pending == "" {
			start = n
		}
		if strings.HasSuffix(text, `\`) {
			pending += strings.TrimSuffix(text, `\`) + " "
			continue
		}
		text, pending = pending+text, ""
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cur.lines = append(cur.lines, line{number: start, text: text, command: stripComment(text)})
	}
	return blocks, nil
}

// stripComment cuts a trailing comment, which the README sets off by two
// spaces or more.
func stripComment(text string) string {
	if i := strings.Index(text, "  #"); i >= 0 {
		return strings.TrimSpace(text[:i])
	}
	return text
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}
