package capture

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

const (
	wholeFrame   = "id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"
	partialFrame = "id: 2\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"res"
)

// sseUpstream serves one SSE response: the given bytes, flushed, then end
// decides how the response stops.
func sseUpstream(t *testing.T, body string, end func(w http.ResponseWriter, r *http.Request)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, body)
		_ = http.NewResponseController(w).Flush()
		end(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// hangUp closes the connection under the handler: no terminating chunk, the
// way a crashed server ends a stream.
func hangUp(t *testing.T) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("hijack: %v", err)
			return
		}
		conn.Close()
	}
}

// TestProxyUpstreamStopsMidFrame: an upstream that stops inside a frame is
// forwarded as it is, the partial frame recorded as raw on a
// transport-abort. A hang-up (no terminating chunk) is passed on to the
// client as a cut connection; a clean end of the response as a clean end.
func TestProxyUpstreamStopsMidFrame(t *testing.T) {
	for _, tc := range []struct {
		name    string
		end     func(http.ResponseWriter, *http.Request)
		cut     bool
		because string
	}{
		{"hang-up", hangUp(t), true, "upstream failed"},
		{"clean end", func(http.ResponseWriter, *http.Request) {}, false, "upstream ended the stream in the middle of a frame"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := sseUpstream(t, wholeFrame+partialFrame, tc.end)
			h := startProxy(t, up.URL+"/mcp", ProxyConfig{})
			resp, err := http.Get(h.url("/mcp"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(got) != wholeFrame+partialFrame || (err != nil) != tc.cut {
				t.Errorf("the client received %q (read error %v), want upstream's bytes %q and cut=%v", got, err, wholeFrame+partialFrame, tc.cut)
			}
			evs := h.close()
			abort := lastOfExchange(t, evs, 1)
			if abort.Event != trace.TransportAbort || abort.Direction != trace.ServerToClient || abort.Stream != "get:1" ||
				!strings.HasPrefix(abort.Reason, tc.because) || string(abort.Bytes()) != partialFrame {
				t.Errorf("the stream ended with %+v, want a transport-abort (%s) carrying the partial frame as raw", abort, tc.because)
			}
			checkMessageCount(t, evs, 1)
		})
	}
}

func TestProxyClientDisconnectsMidStream(t *testing.T) {
	upstreamSawCancel := make(chan struct{})
	up := sseUpstream(t, wholeFrame, func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
			close(upstreamSawCancel)
		case <-time.After(10 * time.Second):
		}
	})
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := newMCPClient(t, h.url("/mcp"))
	resp := c.openGet(ctx, "get")
	buf := make([]byte, len(wholeFrame))
	if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != wholeFrame {
		t.Fatalf("read %q (%v), want the first frame", buf, err)
	}
	cancel()
	resp.Body.Close()
	select {
	case <-upstreamSawCancel:
	case <-time.After(10 * time.Second):
		t.Fatal("upstream's request was not cancelled when the client went away")
	}
	abort := h.waitFor("the client's disconnect", func(ev trace.Event) bool { return ev.Event == trace.TransportAbort })
	if abort.Direction != trace.ClientToServer || abort.Stream != "get:1" || !strings.HasPrefix(abort.Reason, "the client disconnected") {
		t.Errorf("recorded %+v, want a client-to-server transport-abort of get:1", abort)
	}
	checkMessageCount(t, h.close(), 1)
}

func TestProxyHTTPSUpstream(t *testing.T) {
	up := echoUpstream(t, nil, true)
	roots := x509.NewCertPool()
	roots.AddCert(up.Certificate())
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{TLS: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}})
	c := newMCPClient(t, h.url("/mcp"))
	init := c.post("initialize", initializeRequest)
	call := c.post("call", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"over tls"}}}`)
	if init.status != http.StatusOK || call.status != http.StatusOK || len(call.messages()) != 1 || !strings.Contains(call.messages()[0], "over tls") {
		t.Fatalf("through the proxy to an https upstream: initialize %d, call %d %q", init.status, call.status, call.messages())
	}
	evs := h.close()
	checkExchange(t, evs, 2, wantExchange{method: http.MethodPost, request: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"over tls"}}}`, resp: call, streamEnd: true})
}

func TestProxyHTTPSUpstreamUntrusted(t *testing.T) {
	up := echoUpstream(t, nil, true)
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{})
	resp := newMCPClient(t, h.url("/mcp")).post("initialize", initializeRequest)
	if resp.status != http.StatusBadGateway {
		t.Errorf("an upstream whose certificate is not trusted answered %d, want 502", resp.status)
	}
	abort := lastOfExchange(t, h.close(), 1)
	if abort.Event != trace.TransportAbort || !strings.Contains(abort.Reason, "certificate") {
		t.Errorf("recorded %+v, want a transport-abort naming the certificate problem", abort)
	}
}

func TestProxyUpstreamUnreachable(t *testing.T) {
	up := httptest.NewServer(http.NotFoundHandler())
	up.Close()
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{})
	resp := newMCPClient(t, h.url("/mcp")).post("initialize", initializeRequest)
	if resp.status != http.StatusBadGateway {
		t.Errorf("status %d, want 502", resp.status)
	}
	if abort := lastOfExchange(t, h.close(), 1); abort.Event != trace.TransportAbort || !strings.HasPrefix(abort.Reason, "upstream failed") {
		t.Errorf("recorded %+v, want a transport-abort", abort)
	}
}

// lastOfExchange returns the exchange's last event.
func lastOfExchange(t *testing.T, evs []trace.Event, exchange int64) trace.Event {
	t.Helper()
	got := ofExchange(evs, exchange)
	if len(got) == 0 {
		t.Fatalf("no events of exchange %d:\n%s", exchange, dumpEvents(evs))
	}
	return got[len(got)-1]
}

func checkMessageCount(t *testing.T, evs []trace.Event, want int) {
	t.Helper()
	n := 0
	for _, ev := range evs {
		if ev.Kind == trace.KindMessage {
			n++
		}
	}
	if n != want {
		t.Errorf("%d message events, want %d:\n%s", n, want, dumpEvents(evs))
	}
}
