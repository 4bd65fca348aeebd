package probe_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The fixture servers and the network sandbox are subcommands of
// mcpverdict ({self}). The tests build a stand-in with only those
// (./internal/probe/standin) once, without the race detector: a
// race-instrumented process takes a tenth of a second longer to start, and
// the fixture suite starts well over a thousand.
var (
	buildOnce sync.Once
	selfPath  string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// mcpverdictBinary returns the path of an mcpverdict built for this test
// run.
func mcpverdictBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "mcpverdict-probe-test-")
		if buildErr != nil {
			return
		}
		selfPath = filepath.Join(buildDir, "mcpverdict")
		cmd := exec.Command("go", "build", "-o", selfPath, "./internal/probe/standin")
		cmd.Dir = "../.."
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = err
			os.Stderr.Write(out)
		}
	})
	if buildErr != nil {
		t.Fatalf("building mcpverdict for the probe's {self}: %v", buildErr)
	}
	return selfPath
}
