package capture_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpverdict/mcpverdict/internal/capture"
	"github.com/mcpverdict/mcpverdict/internal/cli"
	"github.com/mcpverdict/mcpverdict/internal/testserver"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// TestCaptureHTTPCommand runs `mcpverdict capture -o TRACE http --upstream
// URL` in-process, sends a session through the URL it prints, cancels it,
// and reads the trace it left.
func TestCaptureHTTPCommand(t *testing.T) {
	server := testserver.NewEchoServer()
	up := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(up.Close)
	out := filepath.Join(t.TempDir(), "session.jsonl")
	var stdout, stderr capture.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := cli.Command{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Context: ctx}
	exit := make(chan int, 1)
	go func() { exit <- cmd.Main([]string{"capture", "-o", out, "http", "--upstream", up.URL + "/mcp"}) }()

	endpoint := waitForLine(t, &stdout, exit)
	if !strings.HasPrefix(endpoint, "http://127.0.0.1:") || !strings.HasSuffix(endpoint, "/mcp") {
		t.Errorf("capture http printed %q, want a loopback URL ending in the upstream path", endpoint)
	}
	session, answer := capture.InitializeThrough(t, endpoint)
	if len(answer) != 1 || !strings.Contains(answer[0], "mcpverdict-echo") {
		t.Errorf("initialize through the CLI proxy answered %q", answer)
	}
	cancel()
	if code := <-exit; code != 0 {
		t.Fatalf("capture http exited %d: %s", code, stderr.String())
	}
	evs, err := trace.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkCLITrace(t, evs, session)
}

// waitForLine waits for the first line the command prints.
func waitForLine(t *testing.T, stdout *capture.SyncBuffer, exit <-chan int) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if line, _, ok := strings.Cut(stdout.String(), "\n"); ok {
			return line
		}
		select {
		case code := <-exit:
			t.Fatalf("capture http exited %d before printing its URL", code)
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("capture http printed no URL within 10s")
	return ""
}

func checkCLITrace(t *testing.T, evs []trace.Event, session string) {
	t.Helper()
	if len(evs) < 2 || evs[0].Event != trace.TransportOpen || evs[len(evs)-1].Event != trace.TransportClose {
		t.Fatalf("the trace does not run from transport-open to transport-close: %+v", evs)
	}
	var request, answer bool
	for _, ev := range evs {
		if ev.Kind != trace.KindMessage {
			continue
		}
		request = request || bytes.Contains(ev.Payload, []byte(`"method":"initialize"`))
		answer = answer || (bytes.Contains(ev.Payload, []byte("mcpverdict-echo")) && ev.Session == session && ev.SSE != nil)
	}
	if !request || !answer {
		t.Errorf("the trace lacks the initialize request (%v) or its answer under session %q (%v): %+v", request, session, answer, evs)
	}
}

// TestCaptureHTTPCommandKeepsUpstreamCredentialsOutOfItsOutput gives
// capture http an upstream URL with a password and a token in it: neither
// appears on stdout, stderr or in the trace, whether the URL is used or
// refused.
func TestCaptureHTTPCommandKeepsUpstreamCredentialsOutOfItsOutput(t *testing.T) {
	server := testserver.NewEchoServer()
	up := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(up.Close)
	upstream := strings.Replace(up.URL, "http://", "http://user:SECRET-PASS@", 1) + "/mcp?token=SECRET-QUERY"
	out := filepath.Join(t.TempDir(), "session.jsonl")
	var stdout, stderr capture.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := cli.Command{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Context: ctx}
	exit := make(chan int, 1)
	go func() { exit <- cmd.Main([]string{"capture", "-o", out, "http", "--upstream", upstream}) }()
	capture.InitializeThrough(t, waitForLine(t, &stdout, exit))
	cancel()
	if code := <-exit; code != 0 {
		t.Fatalf("capture http exited %d: %s", code, stderr.String())
	}
	recorded, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	refused := cli.Command{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}
	if code := refused.Main([]string{"capture", "-o", out + ".2", "http", "--upstream", "ftp://user:SECRET-PASS@host/mcp?token=SECRET-QUERY"}); code == 0 {
		t.Errorf("capture http accepted an ftp upstream")
	}
	for name, b := range map[string][]byte{"stdout": stdout.Bytes(), "stderr": stderr.Bytes(), "the trace": recorded} {
		if bytes.Contains(b, []byte("SECRET")) {
			t.Errorf("%s holds a credential from the upstream URL:\n%s", name, b)
		}
	}
	if !strings.Contains(stderr.String(), "recording http://[redacted]@127.0.0.1:") {
		t.Errorf("stderr %q does not name the upstream, redacted", stderr.String())
	}
}
