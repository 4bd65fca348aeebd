package capture

import (
	"bytes"
	"io"
	"net/url"
	"sync"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/sse/ssetest"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// FuzzProxySSERelay runs the proxy's SSE relay over any upstream bytes, cut
// into reads at any points: the client must get exactly upstream's bytes
// (those of an unfinished frame are handed back to forward at the end), and
// every frame with data must be recorded as one message, in order.
func FuzzProxySSERelay(f *testing.F) {
	for _, seed := range ssetest.Seeds {
		f.Add([]byte(seed), []byte{3, 17, 255})
	}
	f.Fuzz(func(t *testing.T, stream, cuts []byte) {
		rec := &relayRecorder{}
		p, err := NewProxy(ProxyConfig{Upstream: &url.URL{Scheme: "http", Host: "upstream.invalid"}, Recorder: rec})
		if err != nil {
			t.Fatal(err)
		}
		x := &exchange{proxy: p, id: 1, stream: "get:1"}
		var client flushBuffer
		end := x.relaySSE(&ssetest.CutReader{Data: stream, Cuts: cuts}, &client)
		if end.err != io.EOF || end.byClient {
			t.Fatalf("relay ended with %v (client %v), want upstream's EOF", end.err, end.byClient)
		}
		if got := append(client.Bytes(), end.partial...); !bytes.Equal(got, stream) {
			t.Fatalf("forwarded %q, want %q", got, stream)
		}
		checkRelayedMessages(t, rec.messages(), ssetest.Messages(stream))
	})
}

func checkRelayedMessages(t *testing.T, got []trace.Event, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d messages recorded, want %d", len(got), len(want))
	}
	for i, ev := range got {
		if b := ev.Bytes(); string(b) != want[i] && string(b) != compactJSON(want[i]) {
			t.Errorf("message %d recorded as %q, want %q", i, b, want[i])
		}
		if ev.SSE == nil || ev.Exchange != 1 || ev.Stream != "get:1" {
			t.Errorf("message %d recorded without its frame, exchange or stream: %+v", i, ev)
		}
	}
}

// relayRecorder keeps events in memory.
type relayRecorder struct {
	mu     sync.Mutex
	events []trace.Event
}

func (r *relayRecorder) Record(ev trace.Event) (int64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev.Seq = int64(len(r.events))
	r.events = append(r.events, ev)
	return ev.Seq, nil
}

func (r *relayRecorder) messages() []trace.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []trace.Event
	for _, ev := range r.events {
		if ev.Kind == trace.KindMessage {
			out = append(out, ev)
		}
	}
	return out
}

// flushBuffer is a client that never fails.
type flushBuffer struct{ bytes.Buffer }

func (*flushBuffer) Flush() error { return nil }
