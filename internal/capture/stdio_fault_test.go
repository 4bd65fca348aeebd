package capture_test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/capture"
	"github.com/mcpverdict/mcpverdict/internal/testserver"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// shortGraces keeps the shutdown tests fast.
func shortGraces(cfg *capture.StdioConfig) {
	cfg.CloseGrace, cfg.TermGrace = 150*time.Millisecond, 150*time.Millisecond
}

// termGraces waits briefly before SIGTERM but long after it, so that a
// server that does exit on SIGTERM is never also killed on a loaded machine.
func termGraces(cfg *capture.StdioConfig) {
	cfg.CloseGrace, cfg.TermGrace = 150*time.Millisecond, 5*time.Second
}

// ending returns the last two events, which must be process-exit and the
// transport's close or abort.
func ending(t *testing.T, events []trace.Event) (exit, end trace.Event) {
	t.Helper()
	if len(events) < 3 || events[0].Event != trace.TransportOpen {
		t.Fatalf("trace %+v: want transport-open, then at least process-exit and the end", events)
	}
	exit, end = events[len(events)-2], events[len(events)-1]
	if exit.Event != trace.ProcessExit {
		t.Fatalf("second to last event %+v; want process-exit", exit)
	}
	return exit, end
}

func assertAbort(t *testing.T, end trace.Event, dir trace.Direction, reason string) {
	t.Helper()
	if end.Event != trace.TransportAbort || end.Direction != dir || !strings.Contains(end.Reason, reason) {
		t.Errorf("last event %+v; want transport-abort %s with a reason containing %q", end, dir, reason)
	}
}

func TestStdioServerCrashMidMessageAborts(t *testing.T) {
	argv, env := fixture("fault-half-line")
	s := startWrapped(t, argv, env, nil)
	s.client.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	s.client.finish()
	r, events := s.wait()

	if got := s.client.received.String(); got != testserver.HalfLine {
		t.Errorf("the client received %q; want the partial line %q forwarded", got, testserver.HalfLine)
	}
	if r.status != (capture.ExitStatus{Code: 1}) || r.err != nil {
		t.Errorf("RunStdio = %+v, %v; want exit code 1", r.status, r.err)
	}
	exit, end := ending(t, events)
	partial := events[len(events)-3]
	if partial.Direction != trace.ServerToClient || partial.Raw == nil || *partial.Raw != testserver.HalfLine {
		t.Errorf("event before process-exit %+v; want the partial bytes as raw, server-to-client", partial)
	}
	if exit.ExitCode == nil || *exit.ExitCode != 1 {
		t.Errorf("process-exit %+v; want exit_code 1", exit)
	}
	assertAbort(t, end, trace.ServerToClient, fmt.Sprintf("middle of a message, %d bytes", len(testserver.HalfLine)))
}

func TestStdioLingeringServerGetsSIGTERMAfterCloseGrace(t *testing.T) {
	argv, env := fixture("fault-linger")
	s := startWrapped(t, argv, env, termGraces)
	start := time.Now()
	s.client.finish()
	r, events := s.wait()

	if r.status != (capture.ExitStatus{Code: 128 + 15, Signal: "SIGTERM"}) {
		t.Errorf("status %+v; want 143 from SIGTERM", r.status)
	}
	if elapsed := time.Since(start); elapsed < 150*time.Millisecond {
		t.Errorf("the server was signalled %s after its stdin closed, before the close grace", elapsed)
	}
	exit, end := ending(t, events)
	if exit.Signal != "SIGTERM" || exit.ExitCode != nil {
		t.Errorf("process-exit %+v; want signal SIGTERM and no exit_code", exit)
	}
	if end.Event != trace.TransportClose || end.Reason != "the server did not exit when its stdin closed: the wrapper sent SIGTERM after 150ms" {
		t.Errorf("last event %+v; want transport-close saying SIGTERM was needed", end)
	}
}

func TestStdioStubbornProcessGroupGetsSIGKILL(t *testing.T) {
	argv, env := fixture("fault-stubborn")
	s := startWrapped(t, argv, env, shortGraces)
	grandchild := grandchildPid(t, s.client.readLine())
	s.client.finish()
	r, events := s.wait()

	if r.status != (capture.ExitStatus{Code: 128 + 9, Signal: "SIGKILL"}) {
		t.Errorf("status %+v; want 137 from SIGKILL", r.status)
	}
	_, end := ending(t, events)
	if end.Event != trace.TransportClose || !strings.HasSuffix(end.Reason, "SIGTERM after 150ms, then SIGKILL after 150ms") {
		t.Errorf("last event %+v; want transport-close after SIGTERM then SIGKILL", end)
	}
	waitGone(t, grandchild)
}

func grandchildPid(t *testing.T, line []byte) int {
	t.Helper()
	var note struct {
		Params struct {
			Data struct{ Grandchild int } `json:"data"`
		} `json:"params"`
	}
	if err := json.Unmarshal(line, &note); err != nil || note.Params.Data.Grandchild == 0 {
		t.Fatalf("first line %q does not name the grandchild: %v", line, err)
	}
	return note.Params.Data.Grandchild
}

// waitGone waits until pid no longer runs: gone, or a zombie that only its
// new parent can reap.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if syscall.Kill(pid, 0) != nil || (err == nil && strings.Contains(string(stat), ") Z ")) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("grandchild %d still runs: the SIGKILL did not reach the server's process group", pid)
}

func TestStdioOutputHeldOutsideTheGroupIsAbandoned(t *testing.T) {
	argv, env := fixture("fault-escape")
	s := startWrapped(t, argv, env, func(cfg *capture.StdioConfig) { cfg.TermGrace = 150 * time.Millisecond })
	escaped := grandchildPid(t, s.client.readLine())
	t.Cleanup(func() { syscall.Kill(escaped, syscall.SIGKILL) })
	s.clientIn.Close()
	r, events := s.wait()

	if r.status != (capture.ExitStatus{}) || r.err != nil {
		t.Errorf("RunStdio = %+v, %v; want the server's exit 0", r.status, r.err)
	}
	_, end := ending(t, events)
	assertAbort(t, end, trace.ServerToClient, "a process outside the group holds it")
}

func TestStdioClientClosingMidMessageAborts(t *testing.T) {
	argv, env := fixture("echo")
	s := startWrapped(t, argv, env, nil)
	io.WriteString(s.clientIn, `{"jsonrpc":"2.0","id":1,"method":"initi`)
	s.client.finish()
	_, events := s.wait()

	_, end := ending(t, events)
	partial := events[1]
	if partial.Direction != trace.ClientToServer || partial.Raw == nil || *partial.Raw != `{"jsonrpc":"2.0","id":1,"method":"initi` {
		t.Errorf("event 1 %+v; want the client's partial line as raw", partial)
	}
	assertAbort(t, end, trace.ClientToServer, "the client's stdin ended in the middle of a message")
}

func TestStdioClientThatStopsReadingAborts(t *testing.T) {
	argv, env := fixture("fault-cat-exit7")
	s := startWrapped(t, argv, env, nil)
	s.clientOut.Close()
	s.client.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	s.clientIn.Close()
	r, events := s.wait()

	if r.status.Code != 7 {
		t.Errorf("status %+v; want the server's exit code 7", r.status)
	}
	if got := messages(events); len(got) != 2 || got[1].dir != trace.ServerToClient {
		t.Errorf("messages %q; want the request and its echo, recorded though the client never read it", got)
	}
	_, end := ending(t, events)
	assertAbort(t, end, trace.ClientToServer, "the client stopped reading the server's output")
}

func TestStdioForwardsBytesAsTheyComeAndKeepsTheExitCode(t *testing.T) {
	argv, env := fixture("fault-cat-exit7")
	s := startWrapped(t, argv, env, nil)
	io.WriteString(s.clientIn, "{\"a\":1}\n\n  \n{\"b\":")
	if got := readExactly(t, s.clientOut, len("{\"a\":1}\n\n  \n{\"b\":")); got != "{\"a\":1}\n\n  \n{\"b\":" {
		t.Fatalf("the client got %q before completing the line; want every byte so far, the unfinished line's included", got)
	}
	io.WriteString(s.clientIn, "2}\nnot json\n")
	s.client.finish()
	r, events := s.wait()

	if r.status != (capture.ExitStatus{Code: 7}) || r.err != nil {
		t.Errorf("RunStdio = %+v, %v; want exit code 7", r.status, r.err)
	}
	want := []string{`{"a":1}`, `{"b":2}`, `not json`}
	for _, dir := range []trace.Direction{trace.ClientToServer, trace.ServerToClient} {
		if got := linesOf(messages(events), dir); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s messages %q; want %q (blank lines unrecorded)", dir, got, want)
		}
	}
	if _, end := ending(t, events); end.Event != trace.TransportClose || end.Reason != "" {
		t.Errorf("last event %+v; want transport-close: a non-zero exit after the client closed is still a clean close", end)
	}
}

func readExactly(t *testing.T, r io.Reader, n int) string {
	t.Helper()
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		t.Fatalf("client read: %v", err)
	}
	return string(buf)
}

func TestStdioForwardsSignalsToTheServer(t *testing.T) {
	argv, env := fixture("fault-signals")
	s := startWrapped(t, argv, env, nil)
	s.client.readLine() // ready
	s.signals <- syscall.SIGHUP
	if got := string(s.client.readLine()); !strings.Contains(got, `"data":"hangup"`) {
		t.Errorf("after forwarding SIGHUP the server wrote %q; want it to report the hangup", got)
	}
	s.client.finish()
	r, events := s.wait()
	if r.status != (capture.ExitStatus{}) {
		t.Errorf("status %+v; want 0", r.status)
	}
	if _, end := ending(t, events); end.Event != trace.TransportClose {
		t.Errorf("last event %+v; want transport-close", end)
	}
}

func TestStdioServerKilledWhileClientIsOpenAborts(t *testing.T) {
	argv, env := fixture("fault-linger")
	s := startWrapped(t, argv, env, nil)
	s.signals <- syscall.SIGKILL
	r, events := s.wait()

	if r.status != (capture.ExitStatus{Code: 137, Signal: "SIGKILL"}) {
		t.Errorf("status %+v; want 137 from SIGKILL", r.status)
	}
	exit, end := ending(t, events)
	if exit.Signal != "SIGKILL" {
		t.Errorf("process-exit %+v; want signal SIGKILL", exit)
	}
	assertAbort(t, end, trace.ServerToClient, "the server was ended by SIGKILL before the client closed its stdin (after the wrapper forwarded SIGKILL)")
}

func TestStdioServerThatCannotStartIsNamed(t *testing.T) {
	s := startWrapped(t, []string{"/nonexistent/mcp-server", "--flag"}, nil, nil)
	r, events := s.wait()

	if r.err == nil || !strings.Contains(r.err.Error(), `cannot start server "/nonexistent/mcp-server"`) || r.status.Code != 2 {
		t.Fatalf("RunStdio = %+v, %v; want status 2 and an error naming the command", r.status, r.err)
	}
	if len(events) != 1 || events[0].Event != trace.TransportAbort || !strings.Contains(events[0].Reason, "no such file") {
		t.Errorf("trace %+v; want one transport-abort saying why", events)
	}
}

func TestStdioCancelledContextStopsTheServer(t *testing.T) {
	argv, env := fixture("fault-linger")
	s := startWrapped(t, argv, env, termGraces)
	s.cancel()
	r, events := s.wait()

	if r.status.Signal != "SIGTERM" {
		t.Errorf("status %+v; want the server ended by SIGTERM", r.status)
	}
	_, end := ending(t, events)
	assertAbort(t, end, trace.ClientToServer, "the capture was cancelled")
}
