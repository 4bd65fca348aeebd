package capture

import (
	"bytes"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// wantExchange is what one exchange should have put in the trace.
type wantExchange struct {
	method  string
	request string // the JSON-RPC request body, "" for none
	resp    *clientResponse
	// streamEnd is set when the SSE response ended cleanly and so closes
	// with a transport-close of its stream.
	streamEnd bool
}

// checkExchange holds the events of one exchange to what the client sent
// and received: the request head and body, the response head, then one
// event per recorded SSE frame (or the JSON body) with ids kept, in order.
func checkExchange(t *testing.T, evs []trace.Event, id int64, want wantExchange) {
	t.Helper()
	got := ofExchange(evs, id)
	next := func(what string) *trace.Event {
		t.Helper()
		if len(got) == 0 {
			t.Fatalf("exchange %d: no event for %s; the exchange holds:\n%s", id, what, dumpEvents(ofExchange(evs, id)))
		}
		ev := &got[0]
		got = got[1:]
		return ev
	}
	if ev := next("the request head"); ev.Kind != trace.KindHTTP || ev.Direction != trace.ClientToServer || ev.Method != want.method || ev.Path != "/mcp" {
		t.Errorf("exchange %d: request head = %+v, want http %s /mcp", id, ev, want.method)
	}
	if want.request != "" {
		checkMessage(t, next("the request body"), trace.ClientToServer, compactJSON(want.request), nil)
	}
	head := next("the response head")
	if head.Kind != trace.KindHTTP || head.Status != want.resp.status || head.Headers["content-type"] != want.resp.header.Get("Content-Type") {
		t.Errorf("exchange %d: response head = %+v, want status %d content-type %q", id, head, want.resp.status, want.resp.header.Get("Content-Type"))
	}
	checkBody(t, next, want.resp)
	if want.streamEnd {
		if ev := next("the stream's end"); ev.Kind != trace.KindLifecycle || ev.Event != trace.TransportClose || ev.Stream == "" {
			t.Errorf("exchange %d: after the stream, %+v, want its transport-close", id, ev)
		}
	}
	for _, ev := range got {
		if ev.Kind != trace.KindLifecycle {
			t.Errorf("exchange %d: unexpected event %+v", id, ev)
		}
	}
}

// checkBody matches the recorded response body events to what the client got.
func checkBody(t *testing.T, next func(string) *trace.Event, resp *clientResponse) {
	t.Helper()
	if resp.frames == nil {
		if len(resp.body) > 0 {
			checkMessage(t, next("the response body"), trace.ServerToClient, compactJSON(string(resp.body)), nil)
		}
		return
	}
	for _, f := range resp.frames {
		if !f.fields {
			continue
		}
		ev := next("the SSE frame " + clip(f.raw))
		if f.data == "" {
			if ev.Kind != trace.KindHTTP || ev.SSE == nil || ev.Status != 0 || !sameID(ev.SSE.ID, f.id) {
				t.Errorf("data-less frame %q recorded as %+v, want an http event with its sse fields", clip(f.raw), ev)
			}
			continue
		}
		checkMessage(t, ev, trace.ServerToClient, compactJSON(f.data), &f)
	}
}

func checkMessage(t *testing.T, ev *trace.Event, dir trace.Direction, payload string, frame *clientFrame) {
	t.Helper()
	if ev.Kind != trace.KindMessage || ev.Direction != dir || !bytes.Equal(ev.Bytes(), []byte(payload)) {
		t.Errorf("recorded a %s %s event %s, want a %s message %s", ev.Direction, ev.Kind, clip(string(ev.Bytes())), dir, clip(payload))
		return
	}
	if frame == nil {
		if ev.SSE != nil {
			t.Errorf("a JSON body recorded with sse %+v", ev.SSE)
		}
		return
	}
	if ev.SSE == nil || !sameID(ev.SSE.ID, frame.id) || ev.SSE.Event != frame.event {
		t.Errorf("frame %q recorded with sse %+v, want id %v event %q", clip(frame.raw), ev.SSE, deref(frame.id), frame.event)
	}
}

func sameID(a, b *string) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}

// checkRecordedFirst fails unless the trace already holds the frame the
// client just received: each message is recorded before the bytes that
// complete its frame are forwarded.
func checkRecordedFirst(t *testing.T, h *proxyHarness, f clientFrame) {
	if !f.fields {
		return
	}
	for _, ev := range h.events() {
		if ev.SSE == nil || !sameID(ev.SSE.ID, f.id) {
			continue
		}
		if f.data == "" || bytes.Equal(ev.Bytes(), []byte(compactJSON(f.data))) {
			return
		}
	}
	t.Errorf("the client received frame %q before the trace recorded it", clip(f.raw))
}

// clip shortens s for a failure message.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// checkSequence fails unless seq strictly increases, the trace opens with
// transport-open and closes with transport-close.
func checkSequence(t *testing.T, evs []trace.Event) {
	t.Helper()
	if len(evs) < 2 || evs[0].Event != trace.TransportOpen || evs[len(evs)-1].Event != trace.TransportClose {
		t.Fatalf("the trace does not run from transport-open to transport-close:\n%s", dumpEvents(evs))
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq <= evs[i-1].Seq {
			t.Fatalf("seq %d follows %d", evs[i].Seq, evs[i-1].Seq)
		}
	}
}
