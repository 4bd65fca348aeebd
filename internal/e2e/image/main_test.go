// Package image builds the action's container image from this checkout and
// runs it the way GitHub runs a docker action: docker run with the
// workspace, the file commands, the home and the event mounted where the
// runner mounts them, the GITHUB_* variables with the container's paths,
// every input as INPUT_<NAME> with its dashes kept, and args [action]. It
// needs a Docker daemon and local base images: scripts/test-image provides
// both and sets MCPVERDICT_IMAGE_TEST; without it every test skips.
package image

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The images the tests build, once per run.
const (
	runtimeTag = "mcpverdict-test/action:dev"
	judgeTag   = "mcpverdict-test/judge:dev"
)

var (
	buildOnce  sync.Once
	buildErr   error
	hostBinary string // mcpverdict built for this machine, for the host's side of a scenario
)

// repoRoot is the checkout the image is built from.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// requireImages skips unless scripts/test-image runs the tests, and builds
// the runtime and judge images (and the host's mcpverdict) on first use.
func requireImages(t *testing.T) {
	t.Helper()
	if os.Getenv("MCPVERDICT_IMAGE_TEST") == "" {
		t.Skip("scripts/test-image builds the image and runs these tests")
	}
	buildOnce.Do(func() { buildErr = buildAll() })
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	// A test that removed the image (the release path does) leaves it to
	// be built again, from the build cache.
	if _, err := docker("image", "inspect", runtimeTag); err != nil {
		schemas := serveSchemas()
		defer schemas.Close()
		if err := buildImage("runtime", runtimeTag, schemas.URL); err != nil {
			t.Fatal(err)
		}
	}
}

func buildAll() error {
	dir, err := os.MkdirTemp("", "mcpverdict-image-test-")
	if err != nil {
		return err
	}
	hostBinary = filepath.Join(dir, "mcpverdict")
	build := exec.Command("go", "build", "-o", hostBinary, "./cmd/mcpverdict")
	build.Dir = repoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	schemas := serveSchemas()
	defer schemas.Close()
	for _, img := range []struct{ target, tag string }{{"runtime", runtimeTag}, {"judge", judgeTag}} {
		start := time.Now()
		if err := buildImage(img.target, img.tag, schemas.URL); err != nil {
			return err
		}
		metric("build "+img.target+" (s)", time.Since(start).Seconds())
		size, err := docker("image", "inspect", "--format", "{{.Size}}", img.tag)
		if err != nil {
			return err
		}
		metric(img.target+" image (MB)", parseFloat(size)/1e6)
	}
	return nil
}

// buildImage builds a target of the repository's Dockerfile as GitHub
// builds runs.image, with the local bases and the schema mirror as build
// arguments.
func buildImage(target, tag, schemaURL string) error {
	args := []string{"build", "--network", "host", "--target", target, "-t", tag,
		"--build-arg", "SCHEMA_BASE_URL=" + schemaURL}
	for _, arg := range []string{"GO_IMAGE", "NODE_IMAGE", "RUNTIME_IMAGE", "JUDGE_IMAGE"} {
		base := os.Getenv("MCPVERDICT_" + arg)
		if base == "" {
			return fmt.Errorf("MCPVERDICT_%s is not set: run scripts/test-image", arg)
		}
		args = append(args, "--build-arg", arg+"="+base)
	}
	if commit := os.Getenv("MCPVERDICT_IMAGE_COMMIT"); commit != "" {
		args = append(args, "--build-arg", "COMMIT="+commit)
	}
	if os.Getenv("MCPVERDICT_IMAGE_NOCACHE") != "" {
		args = append(args, "--no-cache")
	}
	out, err := dockerIn(repoRoot(), append(args, ".")...)
	if err != nil {
		return fmt.Errorf("docker build --target %s: %v\n%s", target, err, lastLines(out, 30))
	}
	return nil
}

// serveSchemas serves the specification sources (../shared/mcp-spec or
// MCPVERDICT_SPEC_DIR) on loopback, laid out as the repository's raw files
// are, for the build's schema fetch.
func serveSchemas() *httptest.Server {
	dir := os.Getenv("MCPVERDICT_SPEC_DIR")
	if dir == "" {
		dir = filepath.Join(repoRoot(), "..", "shared", "mcp-spec")
	}
	return httptest.NewServer(http.FileServer(http.Dir(dir)))
}

// docker runs the docker client (DOCKER, against DOCKER_HOST) and returns
// its standard output, trimmed.
func docker(args ...string) (string, error) {
	out, err := dockerIn("", args...)
	return strings.TrimSpace(out), err
}

func dockerIn(dir string, args ...string) (string, error) {
	cmd := exec.Command(dockerClient(), args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func dockerClient() string {
	if d := os.Getenv("DOCKER"); d != "" {
		return d
	}
	return "docker"
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
