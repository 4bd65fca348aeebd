package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A trace from a FIFO is read once, judged under its own name, and
// recorded in the ledger under that name, instead of hanging on a second
// open.
func TestValidateReadsAFIFOOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "session.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	trace, err := os.ReadFile(corpusFile("good/http-session-2025-11-25.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Write(trace)
			f.Close()
		}
	}()
	led := filepath.Join(dir, "ledger.ndjson")
	done := make(chan struct{})
	var code int
	var stdout, stderr string
	go func() {
		code, stdout, stderr = runCLI(t, "validate", "--ledger", led, fifo)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("validate of a FIFO did not end in 30 s")
	}
	if code != 0 || !strings.Contains(stdout, fifo+": revision") {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if ledger, _ := os.ReadFile(led); !strings.Contains(string(ledger), `"path":"`+fifo+`"`) {
		t.Errorf("the ledger does not name the FIFO:\n%.600s", ledger)
	}
}

// /dev/stdin works whether the shell gives a pipe or a file.
func TestValidateReadsStdin(t *testing.T) {
	trace := corpusFile("good/http-session-2025-11-25.jsonl")
	for _, how := range []string{"pipe", "file"} {
		t.Run(how, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "validate", "/dev/stdin")
			cmd.Env = append(os.Environ(), reexecEnv+"=1")
			f, err := os.Open(trace)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if how == "file" {
				cmd.Stdin = f
			} else {
				cmd.Stdin = struct{ *os.File }{f} // not an *os.File: exec gives the child a pipe
			}
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "verdict: pass") {
				t.Errorf("%v\n%s", err, out)
			}
		})
	}
}

// What is not a file, a pipe or a character device is refused at once
// with exit 2, before any report is written.
func TestValidateRefusesADirectory(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "validate", dir)
	if code != 2 || stdout != "" || !strings.Contains(stderr, dir+": a directory, not a file") {
		t.Errorf("exit %d; stdout %q; stderr %q", code, stdout, stderr)
	}
}

// The github format annotates a trace it could not read whole, at its
// file and line, instead of printing nothing.
func TestGitHubAnnotatesAnIncompleteTrace(t *testing.T) {
	// A trace the repository tracks, so the annotation lands on it.
	path := filepath.Join("testdata", "torn.jsonl")
	code, stdout, _ := runCLI(t, "validate", "--format", "github", path)
	want := "::error file=internal/cli/testdata/torn.jsonl,line=2,title=mcpverdict%3A trace not read whole::"
	if code != 3 || !strings.Contains(stdout, want) || !strings.Contains(stdout, "could not be judged whole") {
		t.Errorf("exit %d; stdout %.600q", code, stdout)
	}
}

// Bytes that are no Sigstore bundle are refused before the trusted root is
// fetched: offline, the error is the bundle's, not the network's.
func TestLedgerVerifyParsesTheBundleFirst(t *testing.T) {
	declared, observed := evidencePair()
	dir := t.TempDir()
	led, head := filepath.Join(dir, "ledger.ndjson"), filepath.Join(dir, "ledger.head")
	if code, _, stderr := runCLI(t, "evidence", "validate", "--declared", declared, "--observed", observed, "--out", led, "--head-out", head); code != 0 {
		t.Fatal(stderr)
	}
	garbage := writeTemp(t, "bundle.json", "GARBAGE")
	code, _, stderr := runCLI(t, "ledger", "verify", "--ledger", led, "--expected-head", head, "--bundle", garbage,
		"--certificate-identity", "x", "--certificate-oidc-issuer", "y")
	if code != 2 || !strings.Contains(stderr, garbage+": not a Sigstore bundle") {
		t.Errorf("exit %d; stderr %q", code, stderr)
	}
}
