package capture_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/cli"
	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/testserver"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// The CLI's own tests live with the capture package's because only this
// test binary registers the fixtures they run.

func TestCLICaptureStdioRecordsServerEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	argv := append([]string{"capture", "-o", path, "stdio", "--close-grace", "2s", "--"}, peers.Everything(t)...)
	wrapperIn, clientIn := mustPipe(t)
	clientOut, wrapperOut := mustPipe(t)
	var stderr bytes.Buffer // read only after Main returns
	code := make(chan int, 1)
	go func() {
		code <- (&cli.Command{Stdin: wrapperIn, Stdout: wrapperOut, Stderr: &stderr}).Main(argv)
	}()
	c := newLineClient(t, clientIn, clientOut)
	everythingSession(c)
	c.finish()

	if got := waitCode(t, code); got != 0 {
		t.Fatalf("capture exited %d; want the server's 0 (stderr %q)", got, stderr.String())
	}
	events, err := trace.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	assertTraceMatchesClient(t, events, c.seen)
	assertCleanEnd(t, events)
	if log, _ := os.ReadFile(path + ".stderr"); !strings.Contains(string(log), "Starting default (STDIO) server") {
		t.Errorf("%s.stderr holds %q; want the server's stderr", path, log)
	}
}

func TestCLICaptureStdioExitsWithTheServersStatus(t *testing.T) {
	for _, tc := range []struct {
		fixture    string
		closeGrace string
		want       int
	}{{"fault-cat-exit7", "10s", 7}, {"fault-linger", "100ms", 128 + 15}} {
		t.Run(tc.fixture, func(t *testing.T) {
			t.Setenv(testserver.EnvVar, tc.fixture)
			exe, _ := testserver.Command(tc.fixture)
			path := filepath.Join(t.TempDir(), "t.jsonl")
			got, stderr := runCLI(t, append([]string{"capture", "-o", path, "stdio", "--close-grace", tc.closeGrace, "--"}, exe...))
			if got != tc.want || stderr != "" {
				t.Errorf("capture exited %d with stderr %q; want %d and nothing of its own", got, stderr, tc.want)
			}
			if events, err := trace.ReadFile(path); err != nil || events[len(events)-1].Event != trace.TransportClose {
				t.Errorf("trace %+v, %v; want it to end in transport-close", events, err)
			}
		})
	}
}

func TestCLICaptureStdioNamesAServerThatCannotStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	got, stderr := runCLI(t, []string{"capture", "-o", path, "stdio", "--", "/nonexistent/mcp-server"})
	if got != 2 || !strings.Contains(stderr, `cannot start server "/nonexistent/mcp-server"`) {
		t.Errorf("capture exited %d with stderr %q; want 2 and the command named", got, stderr)
	}
	if events, err := trace.ReadFile(path); err != nil || len(events) != 1 || events[0].Event != trace.TransportAbort {
		t.Errorf("trace %+v, %v; want the one transport-abort", events, err)
	}
}

// runCLI runs mcpverdict in-process with empty stdin and returns its exit
// status and stderr.
func runCLI(t *testing.T, args []string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- (&cli.Command{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}).Main(args)
	}()
	return waitCode(t, code), stderr.String()
}

func waitCode(t *testing.T, code <-chan int) int {
	t.Helper()
	select {
	case c := <-code:
		return c
	case <-time.After(testTimeout):
		t.Fatalf("capture did not exit within %s", testTimeout)
		return -1
	}
}
