package merge_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/cli"
)

// reexecEnv makes the test binary behave as the mcpverdict binary, so that
// check can start its example server as `mcpverdict example-server`.
const reexecEnv = "MCPVERDICT_TEST_REEXEC"

var fleetDir string

func TestMain(m *testing.M) {
	if os.Getenv(reexecEnv) == "1" {
		cmd := cli.Command{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
		os.Exit(cmd.Main(os.Args[1:]))
	}
	dir, err := os.MkdirTemp("", "merge-fleet-")
	if err != nil {
		panic(err)
	}
	fleetDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runCLI runs mcpverdict in-process.
func runCLI(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	return runCLIEnv(t, nil, args...)
}

// runCLIEnv runs mcpverdict in-process with env as its whole environment.
func runCLIEnv(t testing.TB, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := cli.Command{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }}
	code := cmd.Main(args)
	return code, out.String(), errOut.String()
}

var (
	fleetOnce sync.Once
	fleetErr  string
)

// fleet is two job folders that real check runs of the example server
// wrote (alpha and beta), and one (gamma) that validate wrote of a trace
// breaking a MUST clause, with its ledger: made once, copied for each test.
func fleet(t testing.TB) (alpha, beta, gamma string) {
	t.Helper()
	fleetOnce.Do(func() { fleetErr = makeFleet(t) })
	if fleetErr != "" {
		t.Fatal(fleetErr)
	}
	dst := t.TempDir()
	for _, name := range []string{"alpha", "beta", "gamma"} {
		copyDir(t, filepath.Join(fleetDir, name), filepath.Join(dst, name))
	}
	return filepath.Join(dst, "alpha"), filepath.Join(dst, "beta"), filepath.Join(dst, "gamma")
}

func makeFleet(t testing.TB) string {
	if prev, set := os.LookupEnv(reexecEnv); set {
		defer os.Setenv(reexecEnv, prev)
	} else {
		defer os.Unsetenv(reexecEnv)
	}
	os.Setenv(reexecEnv, "1")
	for _, name := range []string{"alpha", "beta"} {
		if code, _, stderr := runCLI(t, "check", "--out", filepath.Join(fleetDir, name)); code != 0 {
			return "check exited " + string(rune('0'+code)) + ": " + stderr
		}
	}
	gamma := filepath.Join(fleetDir, "gamma")
	if err := os.MkdirAll(gamma, 0o755); err != nil {
		return err.Error()
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "corpus", "violations", "base-jsonrpc-version.jsonl"))
	if err != nil {
		return err.Error()
	}
	tr := filepath.Join(gamma, "session.jsonl")
	if err := os.WriteFile(tr, src, 0o644); err != nil {
		return err.Error()
	}
	code, _, stderr := runCLI(t, "validate", "--ledger", filepath.Join(gamma, "ledger.ndjson"), "--head-out", filepath.Join(gamma, "ledger.head"),
		"--json", filepath.Join(gamma, "report.json"), tr)
	if code != 1 {
		return "validate of a violation exited " + string(rune('0'+code)) + ", want 1: " + stderr
	}
	return ""
}

func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
