package capture

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// secretMark is in every credential these tests send: none may reach a
// trace, an error or a log.
const secretMark = "SECRET"

func checkNoSecret(t *testing.T, where string, b []byte) {
	t.Helper()
	if bytes.Contains(b, []byte(secretMark)) {
		t.Errorf("%s holds a secret:\n%s", where, b)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:SECRET-PASS@host:8443/mcp?token=SECRET-Q&SECRET-BARE#SECRET-FRAG": "https://[redacted]@host:8443/mcp?token=[redacted]&[redacted]#[redacted]",
		"http://SECRET-TOKEN@host/mcp":  "http://[redacted]@host/mcp",
		"http://127.0.0.1:3000/mcp":     "http://127.0.0.1:3000/mcp",
		"/callback?code=SECRET&state=x": "/callback?code=[redacted]&state=[redacted]",
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := RedactURL(u); got != want {
			t.Errorf("RedactURL(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestProxyKeepsURLCredentialsOutOfTheTrace: credentials in upstream's URL
// and in the client's request line (query and userinfo, in the absolute
// form a client may send) reach neither the trace nor what the proxy says
// to the client, whether upstream answers or cannot be reached.
func TestProxyKeepsURLCredentialsOutOfTheTrace(t *testing.T) {
	var gotQuery atomic.Value
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotQuery.Store(r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	t.Cleanup(up.Close)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	for name, upstream := range map[string]string{"answering": up.URL, "unreachable": down.URL} {
		t.Run(name, func(t *testing.T) {
			withSecrets := strings.Replace(upstream, "http://", "http://user:SECRET-UPSTREAM-PASS@", 1) + "/mcp?token=SECRET-UPSTREAM-QUERY"
			h := startProxy(t, withSecrets, ProxyConfig{})
			answer := rawRequest(t, h, "POST http://user:SECRET-CLIENT-PASS@"+h.server.Listener.Addr().String()+"/mcp?access_token=SECRET-CLIENT-QUERY HTTP/1.1",
				`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
			checkNoSecret(t, "the proxy's answer", answer)
			evs := h.close()
			checkNoSecret(t, "the trace", h.trace.Bytes())
			// The parameter's name stays, so that the judge sees a token
			// sent in the query; its value never does.
			if head := ofExchange(evs, 1)[0]; head.Path != "/mcp?access_token=[redacted]" {
				t.Errorf("recorded path %q, want /mcp?access_token=[redacted]", head.Path)
			}
		})
	}
	if q, _ := gotQuery.Load().(string); q != "access_token=SECRET-CLIENT-QUERY" {
		t.Errorf("upstream got query %q, want the client's, forwarded", q)
	}
	bad, _ := url.Parse("ftp://user:SECRET-PASS@host/mcp?token=SECRET-QUERY")
	_, err := NewProxy(ProxyConfig{Upstream: bad, Recorder: trace.NewWriter(io.Discard)})
	if err == nil {
		t.Fatal("NewProxy accepted an ftp upstream")
	}
	checkNoSecret(t, "NewProxy's error", []byte(err.Error()))
}

// rawRequest writes one request with the given request line and body on a
// connection of its own and returns all the proxy answered.
func rawRequest(t *testing.T, h *proxyHarness, line, body string) []byte {
	t.Helper()
	conn, err := net.Dial("tcp", h.server.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "%s\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", line, len(body), body)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	answer, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("reading the proxy's answer: %v (after %q)", err, answer)
	}
	return answer
}

// TestProxyUpstreamThatNeverAnswers: an upstream that takes the request and
// sends nothing back costs the exchange ResponseHeaderTimeout, then a 502
// and a transport-abort, the request recorded before it.
func TestProxyUpstreamThatNeverAnswers(t *testing.T) {
	if got := (&ProxyConfig{}).transport().(*http.Transport).ResponseHeaderTimeout; got != DefaultResponseHeaderTimeout {
		t.Errorf("the default transport waits %s for a response header, want %s", got, DefaultResponseHeaderTimeout)
	}
	h := startProxy(t, silentUpstream(t)+"/mcp", ProxyConfig{ResponseHeaderTimeout: 200 * time.Millisecond})
	c := newMCPClient(t, h.url("/mcp"))
	c.http.Timeout = 5 * time.Second // without the proxy's own bound, the test fails here
	start := time.Now()
	resp := c.post("initialize", initializeRequest)
	if elapsed := time.Since(start); resp.status != http.StatusBadGateway || elapsed > 5*time.Second {
		t.Errorf("a silent upstream got the client %d after %s, want 502 soon after the timeout", resp.status, elapsed)
	}
	evs := ofExchange(h.close(), 1)
	if len(evs) != 3 || evs[0].Kind != trace.KindHTTP || string(evs[1].Payload) != initializeRequest {
		t.Fatalf("exchange 1 is %s, want the request's head and body, then the abort", dumpEvents(evs))
	}
	if abort := evs[2]; abort.Event != trace.TransportAbort || !strings.Contains(abort.Reason, "timeout awaiting response headers") {
		t.Errorf("the exchange ended with %+v, want a transport-abort for the missing response header", abort)
	}
}

// silentUpstream accepts connections and reads from them, never writing a
// byte, until the test ends; it returns its http:// URL.
func silentUpstream(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { conn.Close() })
			go func() { _, _ = io.Copy(io.Discard, conn) }()
		}
	}()
	return "http://" + ln.Addr().String()
}

// TestProxyRequestBodyThatNeverArrives: a client that trickles its body
// past RequestBodyTimeout, or hangs up halfway, ends its exchange with a
// transport-abort carrying the bytes that arrived; upstream never sees the
// request.
func TestProxyRequestBodyThatNeverArrives(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("p", 2000) + `"}}`
	for _, tc := range []struct {
		name   string
		send   func(conn net.Conn, stop <-chan struct{}) int // returns how many bytes of body went
		reason string
	}{
		{"trickled", func(conn net.Conn, stop <-chan struct{}) int { return trickle(conn, body, stop) }, "did not send its whole request body within 300ms"},
		{"hung up", func(conn net.Conn, _ <-chan struct{}) int { return hangUpAfter(conn, body[:1000]) }, "the client's request body broke off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var upstreamHits atomic.Int32
			up := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { upstreamHits.Add(1) }))
			t.Cleanup(up.Close)
			h := startProxy(t, up.URL+"/mcp", ProxyConfig{RequestBodyTimeout: 300 * time.Millisecond})
			conn, err := net.Dial("tcp", h.server.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			start := time.Now()
			fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
			stop, sent := make(chan struct{}), make(chan int, 1)
			go func() { sent <- tc.send(conn, stop) }()
			abort := h.waitFor("the body's abort", func(ev trace.Event) bool { return ev.Event == trace.TransportAbort })
			elapsed := time.Since(start)
			close(stop)
			n := <-sent
			if elapsed > 5*time.Second {
				t.Errorf("the exchange took %s to end", elapsed)
			}
			got := string(abort.Bytes())
			if abort.Direction != trace.ClientToServer || !strings.Contains(abort.Reason, tc.reason) || got == "" || !strings.HasPrefix(body, got) || len(got) > n {
				t.Errorf("recorded %+v carrying %d bytes of the %d sent, want a client-to-server abort (%s) carrying the bytes that arrived", abort, len(got), n, tc.reason)
			}
			checkMessageCount(t, h.close(), 0)
			if hits := upstreamHits.Load(); hits != 0 {
				t.Errorf("upstream got %d requests, want none for a body that never arrived whole", hits)
			}
		})
	}
}

// trickle writes body a byte at a time until stop, a failed write or the
// end of body, and returns how many bytes went.
func trickle(conn net.Conn, body string, stop <-chan struct{}) int {
	for i := range len(body) {
		select {
		case <-stop:
			return i
		case <-time.After(10 * time.Millisecond):
		}
		if _, err := io.WriteString(conn, body[i:i+1]); err != nil {
			return i
		}
	}
	return len(body)
}

// hangUpAfter sends part and closes the connection's sending side.
func hangUpAfter(conn net.Conn, part string) int {
	if _, err := io.WriteString(conn, part); err != nil {
		return 0
	}
	_ = conn.(*net.TCPConn).CloseWrite()
	return len(part)
}

// TestProxyGigabyteRequestBody sends a 1 GiB body, generated as it is
// read, to an upstream that takes 32 MiB of it and hangs up: the proxy
// streams what it cannot record instead of holding it, so its heap stays
// far below the body's size, and the trace keeps the request's head, the
// abort that says recording stopped at MaxMessage, and the abort for
// upstream's hang-up.
func TestProxyGigabyteRequestBody(t *testing.T) {
	const size, taken = 1 << 30, 32 << 20
	var upstreamRead atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.CopyN(io.Discard, r.Body, taken)
		upstreamRead.Store(n)
		hangUp(t)(w, r)
	}))
	t.Cleanup(up.Close)
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{MaxMessage: 1 << 20})
	heap := WatchHeap()
	start := time.Now()
	req, err := http.NewRequest(http.MethodPost, h.url("/mcp"), &PatternReader{Size: size})
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close() // the 502, when the client reads it before the proxy hangs up too
	}
	elapsed, growth := time.Since(start), heap.Growth()
	if elapsed > 10*time.Second || upstreamRead.Load() != taken {
		t.Errorf("upstream read %d bytes and the exchange took %s; want %d bytes and a prompt end", upstreamRead.Load(), elapsed, taken)
	}
	if growth > 64<<20 {
		t.Errorf("the heap rose %d MiB while the body streamed through: the proxy holds what it should stream", growth>>20)
	}
	evs := ofExchange(h.close(), 1)
	if len(evs) != 3 || evs[0].Kind != trace.KindHTTP || evs[1].Event != trace.TransportAbort || !strings.HasPrefix(evs[1].Reason, "recording stopped") ||
		evs[2].Event != trace.TransportAbort || !strings.HasPrefix(evs[2].Reason, "upstream failed") {
		t.Errorf("exchange 1 is\n%s want the request's head, the recording-stopped abort, then the abort for upstream's hang-up", dumpEvents(evs))
	}
}
