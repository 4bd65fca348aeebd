package trace

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// tied reads a trace through TieExchanges and returns its events and the
// tier.
func tied(t *testing.T, text string) ([]*Event, *Exchanges) {
	t.Helper()
	r := NewReader(strings.NewReader(text), "bare.jsonl")
	x := TieExchanges(r.Next)
	var events []*Event
	for {
		ev, err := x.Next()
		if errors.Is(err, io.EOF) {
			return events, x
		}
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
}

const bareSession = `{"seq":10,"direction":"client-to-server","transport":"streamable-http","kind":"http","headers":{"accept":"application/json, text/event-stream"}}
{"seq":11,"direction":"client-to-server","transport":"streamable-http","kind":"message","payload":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"seq":12,"direction":"server-to-client","transport":"streamable-http","kind":"http","status":200,"headers":{"content-type":"application/json"}}
{"seq":13,"direction":"server-to-client","transport":"streamable-http","kind":"message","payload":{"jsonrpc":"2.0","id":1,"result":{}}}
{"seq":14,"direction":"client-to-server","transport":"streamable-http","kind":"http","headers":{"accept":"text/event-stream"}}
{"seq":15,"direction":"server-to-client","transport":"streamable-http","kind":"http","status":405}
{"seq":16,"direction":"client-to-server","transport":"streamable-http","kind":"http","method":"DELETE"}
{"seq":17,"direction":"server-to-client","transport":"streamable-http","kind":"http","status":204}
`

func TestTieExchangesByPosition(t *testing.T) {
	events, x := tied(t, bareSession)
	want := []struct {
		exchange int64
		method   string
		stream   string
	}{
		{1, "POST", "post:1"}, {1, "", "post:1"}, {1, "", "post:1"}, {1, "", "post:1"},
		{2, "", ""}, {2, "", ""},
		{3, "DELETE", "delete:3"}, {3, "", "delete:3"},
	}
	for i, w := range want {
		ev := events[i]
		if ev.Exchange != w.exchange || ev.Method != w.method || ev.Stream != w.stream {
			t.Errorf("seq %d: exchange %d, method %q, stream %q; want %d, %q, %q", ev.Seq, ev.Exchange, ev.Method, ev.Stream, w.exchange, w.method, w.stream)
		}
	}
	if x.Inferred != 3 || x.Untied != 0 {
		t.Errorf("inferred %d exchanges with %d untied events, want 3 and 0", x.Inferred, x.Untied)
	}
}

func TestTieExchangesCountsWhatPrecedesEveryRequest(t *testing.T) {
	text := `{"seq":0,"direction":"server-to-client","transport":"streamable-http","kind":"message","payload":{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}}
` + bareSession
	events, x := tied(t, text)
	if events[0].Exchange != 0 || x.Untied != 1 || x.FirstUntied != 1 {
		t.Errorf("a message before any request: exchange %d, %d untied from line %d; want 0, 1 from line 1", events[0].Exchange, x.Untied, x.FirstUntied)
	}
}

func TestTieExchangesLeavesRecordedExchanges(t *testing.T) {
	text := `{"seq":0,"direction":"client-to-server","transport":"streamable-http","kind":"http","method":"POST","exchange":7,"stream":"post:7"}
{"seq":1,"direction":"client-to-server","transport":"streamable-http","kind":"message","payload":{"jsonrpc":"2.0","id":1,"method":"ping"},"exchange":7,"stream":"post:7"}
{"seq":2,"direction":"client-to-server","transport":"streamable-http","kind":"http"}
{"seq":3,"direction":"server-to-client","transport":"streamable-http","kind":"message","payload":{"jsonrpc":"2.0","id":1,"result":{}}}
`
	events, x := tied(t, text)
	if events[2].Exchange != 0 || events[2].Method != "" || events[3].Exchange != 0 || x.Inferred != 0 {
		t.Errorf("a trace with exchange ids of its own was changed: %+v, %+v, %d inferred", events[2], events[3], x.Inferred)
	}
}

func TestTieExchangesLeavesStdio(t *testing.T) {
	text := `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"method":"ping"}}
`
	events, x := tied(t, text)
	if events[0].Exchange != 0 || x.Untied != 0 || x.Inferred != 0 {
		t.Errorf("a stdio event was tied: exchange %d, untied %d", events[0].Exchange, x.Untied)
	}
}

func TestTieExchangesKeepsTheReadersError(t *testing.T) {
	text := `{"seq":0,"direction":"client-to-server","transport":"streamable-http","kind":"http"}
{"seq":0,"direction":"client-to-server","transport":"streamable-http","kind":"http"}
`
	r := NewReader(strings.NewReader(text), "bad.jsonl")
	x := TieExchanges(r.Next)
	if ev, err := x.Next(); err != nil || ev.Method != "" {
		t.Fatalf("first event: %v, %v", ev, err)
	}
	var perr *ParseError
	if _, err := x.Next(); !errors.As(err, &perr) {
		t.Fatalf("the reader's error was lost: %v", err)
	}
}
