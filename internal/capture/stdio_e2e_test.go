package capture_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// everythingSession is a short session whose every response from
// server-everything is deterministic, so two runs can be compared byte for
// byte. It declares no client capabilities: with roots, the server would
// ask for them and linger when unanswered.
func everythingSession(c *lineClient) {
	c.call(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcpverdict-test","version":"1.0.0"}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.call(2, "tools/list", `{}`)
	c.call(3, "tools/call", `{"name":"echo","arguments":{"message":"hello through the wrapper"}}`)
	c.call(4, "tools/call", `{"name":"get-sum","arguments":{"a":2,"b":40}}`)
	c.call(5, "ping", `{}`)
}

func TestStdioWrapperIsTransparentToServerEverything(t *testing.T) {
	argv := peers.Everything(t)
	direct := runDirect(t, argv, nil, everythingSession)

	s := startWrapped(t, argv, nil, nil)
	everythingSession(s.client)
	s.client.finish()
	r, events := s.wait()

	if r.err != nil || r.status.Code != 0 {
		t.Fatalf("RunStdio = %+v, %v; want exit 0 and no error", r.status, r.err)
	}
	if wrapped := s.client.received.Bytes(); !bytes.Equal(wrapped, direct) {
		t.Fatalf("the client received different bytes through the wrapper:\n direct  %q\n wrapped %q", direct, wrapped)
	}
	assertTraceMatchesClient(t, events, s.client.seen)
	assertCleanEnd(t, events)
	if !strings.Contains(s.stderrLog.String(), "Starting default (STDIO) server") || s.stderr.String() != s.stderrLog.String() {
		t.Errorf("stderr passed through %q and logged %q; want the server's banner in both", s.stderr.String(), s.stderrLog.String())
	}
}

// assertTraceMatchesClient checks that the trace holds exactly the lines the
// client sent and received, in the order of each direction, and that every
// response was recorded after its request.
func assertTraceMatchesClient(t *testing.T, events []trace.Event, seen []clientLine) {
	t.Helper()
	recorded := messages(events)
	for _, dir := range []trace.Direction{trace.ClientToServer, trace.ServerToClient} {
		got, want := linesOf(recorded, dir), compactLines(t, linesOf(seen, dir))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s messages in the trace:\n %q\nthe client saw:\n %q", dir, got, want)
		}
	}
	requested := map[string]bool{}
	for _, m := range recorded {
		id := idOf(m.line)
		switch {
		case id == "":
		case m.dir == trace.ClientToServer:
			requested[id] = true
		case !requested[id]:
			t.Errorf("the response with id %s was recorded before its request", id)
		}
	}
}

func assertCleanEnd(t *testing.T, events []trace.Event) {
	t.Helper()
	life := lifecycle(events)
	if len(life) != 3 || events[0].Event != trace.TransportOpen || life[1].Event != trace.ProcessExit ||
		life[1].ExitCode == nil || *life[1].ExitCode != 0 || events[len(events)-1].Event != trace.TransportClose {
		t.Fatalf("lifecycle events %+v; want transport-open first, process-exit 0, transport-close last", life)
	}
	for _, ev := range events {
		if ev.Transport != trace.Stdio || ev.Stream != "stdio" {
			t.Errorf("event %d has transport %q stream %q; want stdio, stdio", ev.Seq, ev.Transport, ev.Stream)
		}
	}
}

func linesOf(lines []clientLine, dir trace.Direction) []string {
	var out []string
	for _, l := range lines {
		if l.dir == dir {
			out = append(out, string(l.line))
		}
	}
	return out
}

// compactLines is what the trace's payload holds for each line.
func compactLines(t *testing.T, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(l)); err != nil {
			t.Fatalf("the client saw a line that is not JSON: %q", l)
		}
		out[i] = buf.String()
	}
	return out
}

// idOf returns the id of a request or response, or "" for a notification.
func idOf(line []byte) string {
	var msg struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &msg) != nil {
		return ""
	}
	return string(msg.ID)
}
