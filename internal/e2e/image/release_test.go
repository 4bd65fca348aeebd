package image

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
)

// The release path, offline: the runtime image pushed to a real registry
// (distribution's) on loopback, action.yml rewritten as the release
// workflow rewrites it, the image removed from the daemon, then the
// action run from the image the rewritten action.yml names, pulled by
// digest, as a user's job runs a release.
func TestReleasedImage(t *testing.T) {
	requireImages(t)
	reg := startRegistry(t)
	tag := reg + "/mcpverdict/action:v0.0.0-test"
	if out, err := docker("tag", runtimeTag, tag); err != nil {
		t.Fatalf("docker tag: %v\n%s", err, out)
	}
	start := time.Now()
	if out, err := docker("push", tag); err != nil {
		t.Fatalf("docker push: %v\n%s", err, out)
	}
	metric("push to a registry on loopback (s)", time.Since(start).Seconds())
	repoDigest, err := docker("image", "inspect", "--format", "{{index .RepoDigests 0}}", tag)
	if err != nil || !strings.Contains(repoDigest, "@sha256:") {
		t.Fatalf("no digest after the push: %q %v", repoDigest, err)
	}
	image := releasedImage(t, repoDigest)
	if image != repoDigest {
		t.Fatalf("the released action.yml names %q, want %q", image, repoDigest)
	}
	// Nothing of the image stays in the daemon but its base's layers.
	t.Cleanup(func() { requireImages(t) })
	if out, err := docker("image", "rm", tag, runtimeTag); err != nil {
		t.Fatalf("docker image rm: %v\n%s", err, out)
	}
	if measuring() {
		// The build cache holds the image's layers too; a pull that is
		// measured must fetch them.
		if out, err := docker("builder", "prune", "--all", "--force"); err != nil {
			t.Fatalf("docker builder prune: %v\n%s", err, out)
		}
		metric("runtime image as pushed, compressed (MB)", float64(dirSize(t, reg))/1e6)
	}
	start = time.Now()
	out, err := docker("pull", image)
	if err != nil {
		t.Fatalf("docker pull %s: %v\n%s", image, err, out)
	}
	metric("pull from a registry on loopback (s)", time.Since(start).Seconds())
	metric("layers the pull fetched", float64(strings.Count(out, "Pull complete")))
	s := newStep(t, hostedUID, hostedGID)
	svc := s.withServices()
	s.inputs["server"] = "mcpverdict example-server"
	r := s.run(image)
	s.expectCode(r, 0)
	s.expectPublished(r)
	svc.expectServicesUsed(t, r)
	if out, err := docker("tag", image, runtimeTag); err != nil {
		t.Fatalf("docker tag: %v\n%s", err, out)
	}
}

// releasedImage runs the release workflow's rewrite of action.yml on a copy
// and returns the image its runs.image names, without docker://.
func releasedImage(t *testing.T, repoDigest string) string {
	t.Helper()
	yml := filepath.Join(t.TempDir(), "action.yml")
	if err := os.WriteFile(yml, []byte(readRepoFile(t, "action.yml")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./internal/devtools/releaseaction", "-image", repoDigest, yml)
	cmd.Dir = repoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("releaseaction: %v\n%s", err, out)
	}
	var meta struct{ Runs struct{ Using, Image string } }
	if err := yaml.Unmarshal([]byte(readFile(t, yml)), &meta); err != nil {
		t.Fatal(err)
	}
	ref, ok := strings.CutPrefix(meta.Runs.Image, "docker://")
	if meta.Runs.Using != "docker" || !ok {
		t.Fatalf("the released action.yml runs %+v", meta.Runs)
	}
	return ref
}

// startRegistry runs distribution's registry (MCPVERDICT_REGISTRY, built
// by scripts/test-image) on loopback, where Docker speaks plain HTTP to a
// registry, and returns its host:port.
func startRegistry(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("MCPVERDICT_REGISTRY")
	if bin == "" {
		t.Fatal("MCPVERDICT_REGISTRY is not set: run scripts/test-image")
	}
	dir := t.TempDir()
	addr := peers.FreeLoopbackAddr(t)
	registryData[addr] = filepath.Join(dir, "data")
	config := filepath.Join(dir, "config.yml")
	text := fmt.Sprintf("version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: %s\nhttp:\n  addr: %s\n", filepath.Join(dir, "data"), addr)
	if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "registry.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd := exec.Command(bin, "serve", config)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
	}
	t.Fatalf("the registry did not listen on %s: %s", addr, lastLines(readFile(t, logPath), 10))
	return ""
}

// registryData is where each registry this run started keeps its blobs.
var registryData = map[string]string{}

// dirSize is the size of the files a registry holds: the compressed layers
// and the manifests pushed to it.
func dirSize(t *testing.T, addr string) int64 {
	t.Helper()
	var n int64
	err := filepath.Walk(registryData[addr], func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
