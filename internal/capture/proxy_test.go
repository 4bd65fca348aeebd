package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

func TestProxyJSONResponses(t *testing.T) {
	up := echoUpstream(t, &mcp.StreamableHTTPOptions{JSONResponse: true}, false)
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{})
	c := newMCPClient(t, h.url("/mcp"))
	init := c.post("initialize", initializeRequest)
	c.protocol = "2025-11-25"
	note := c.post("initialized", initializedNote)
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"json"}}}`
	resp := c.post("call", call)
	if init.header.Get("Content-Type") != "application/json" || note.status != http.StatusAccepted || resp.status != http.StatusOK {
		t.Fatalf("initialize %q, notification %d, call %d", init.header.Get("Content-Type"), note.status, resp.status)
	}
	evs := h.close()
	checkSequence(t, evs)
	checkExchange(t, evs, 1, wantExchange{method: http.MethodPost, request: initializeRequest, resp: init})
	checkExchange(t, evs, 2, wantExchange{method: http.MethodPost, request: initializedNote, resp: note})
	checkExchange(t, evs, 3, wantExchange{method: http.MethodPost, request: call, resp: resp})
	for name, got := range map[string]*clientResponse{"initialize": init, "initialized": note, "call": resp} {
		if sent := h.tap.body(name); !bytes.Equal(got.body, sent) {
			t.Errorf("%s: the client received %q, upstream sent %q", name, got.body, sent)
		}
	}
}

func TestProxyConcurrentSessions(t *testing.T) {
	up := echoUpstream(t, nil, false)
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{})
	const clients, calls = 4, 3
	sessions := make([]string, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			c := newMCPClient(t, h.url("/mcp"))
			c.post("initialize", initializeRequest)
			c.protocol = "2025-11-25"
			c.post("initialized", initializedNote)
			for j := range calls {
				c.post("call", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"client %d call %d"}}}`, j+2, i, j))
			}
			c.delete("delete")
			sessions[i] = c.session
		})
	}
	wg.Wait()
	evs := h.close()
	checkSequence(t, evs)
	for i, sid := range sessions {
		checkSessionCalls(t, evs, sid, i, calls)
	}
}

// checkSessionCalls: every answer carrying client i's text is recorded
// under client i's session, in order, and the session was closed once.
func checkSessionCalls(t *testing.T, evs []trace.Event, session string, client, calls int) {
	t.Helper()
	next := 0
	for _, ev := range evs {
		if ev.Kind != trace.KindMessage || ev.Direction != trace.ServerToClient || !bytes.Contains(ev.Payload, []byte(fmt.Sprintf("client %d call", client))) {
			continue
		}
		if ev.Session != session || !bytes.Contains(ev.Payload, []byte(fmt.Sprintf("client %d call %d", client, next))) {
			t.Errorf("answer %s recorded under session %q, want session %q call %d", ev.Payload, ev.Session, session, next)
		}
		next++
	}
	if next != calls {
		t.Errorf("client %d: %d answers recorded, want %d", client, next, calls)
	}
	checkOneSessionClose(t, evs, session)
}

// checkOneSessionClose: exactly one transport-close without a stream names
// the session (its DELETE).
func checkOneSessionClose(t *testing.T, evs []trace.Event, session string) {
	t.Helper()
	n := 0
	for _, ev := range evs {
		if ev.Event == trace.TransportClose && ev.Session == session && ev.Stream == "" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("session %q closed %d times in the trace, want once", session, n)
	}
}

func TestProxyHeadersKeepNoCredentials(t *testing.T) {
	var gotAuth, gotAcceptEncoding string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth, gotAcceptEncoding = r.Header.Get("Authorization"), r.Header.Get("Accept-Encoding")
		w.Header().Set("Set-Cookie", "session=SECRET-SET-COOKIE")
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Internal-Token", "SECRET-RESPONSE-HEADER")
		w.Header().Set("Location", "https://user:SECRET-LOCATION-PASS@auth.example/cb?code=SECRET-CODE#access_token=SECRET-FRAGMENT")
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"`)
		w.Header().Set("X-Served-By", "node-7")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	t.Cleanup(up.Close)
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{})
	req, _ := http.NewRequest(http.MethodPost, h.url("/mcp?api_key=SECRET-QUERY"), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Authorization", "Bearer SECRET-TOKEN")
	req.Header.Set("Cookie", "sid=SECRET-COOKIE")
	req.Header.Set("Proxy-Authorization", "Basic SECRET-PROXY")
	req.Header.Set("X-Api-Key", "SECRET-KEY")
	req.Header.Set("X-Auth-Token", "SECRET-AUTH-TOKEN")
	req.Header.Set("X-Client-Secret", "SECRET-CLIENT")
	req.Header.Set("X-Db-Password", "SECRET-PASSWORD")
	req.Header.Set("Mcp-Param-Api-Key", "SECRET-PARAM")
	req.Header.Set("X-Apikey", "SECRET-APIKEY")
	req.Header.Set("Mcp-Param-Author", "Ada")
	req.Header.Set("X-Request-Id", "not-allowlisted")
	req.Header.Set("Mcp-Param-Region", "us-west1")
	req.Header.Set("Mcp-Method", "ping")
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if gotAuth != "Bearer SECRET-TOKEN" || gotAcceptEncoding != "" {
		t.Errorf("upstream got Authorization %q and Accept-Encoding %q, want the credential forwarded and no compression asked for", gotAuth, gotAcceptEncoding)
	}
	if resp.Header.Get("Set-Cookie") == "" {
		t.Errorf("the client did not get upstream's Set-Cookie")
	}
	evs := h.close()
	if raw := h.trace.Bytes(); bytes.Contains(raw, []byte("SECRET")) {
		t.Errorf("the trace holds a secret:\n%s", raw)
	}
	want := map[string]string{
		"authorization": redacted, "cookie": redacted, "proxy-authorization": redacted,
		"x-api-key": redacted, "x-apikey": redacted, "x-auth-token": redacted, "x-client-secret": redacted, "x-db-password": redacted,
		"mcp-param-api-key": redacted, "mcp-param-author": "Ada", "mcp-param-region": "us-west1", "mcp-method": "ping",
	}
	checkHeaders(t, ofExchange(evs, 1)[0].Headers, want, "x-request-id")
	// The query's names are kept, so that a token sent there shows in the
	// trace; never its value.
	if path := ofExchange(evs, 1)[0].Path; path != "/mcp?api_key=[redacted]" {
		t.Errorf("recorded path %q, want /mcp?api_key=[redacted]", path)
	}
	want = map[string]string{
		"set-cookie": redacted, "x-internal-token": redacted, "content-type": "application/json",
		"location":         "https://[redacted]@auth.example/cb?code=[redacted]#[redacted]",
		"www-authenticate": `Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"`,
	}
	checkHeaders(t, ofExchange(evs, 1)[2].Headers, want, "x-served-by")
}

func checkHeaders(t *testing.T, got, want map[string]string, absent string) {
	t.Helper()
	for name, value := range want {
		if got[name] != value {
			t.Errorf("recorded %s = %q, want %q (all: %v)", name, got[name], value, got)
		}
	}
	if _, ok := got[absent]; ok {
		t.Errorf("recorded %s, which is not allowlisted", absent)
	}
}

func TestProxyRecordsNonJSONBodiesRaw(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("scalar") != "" {
			_, _ = io.WriteString(w, "null")
			return
		}
		http.Error(w, "no such endpoint", http.StatusNotFound)
	}))
	t.Cleanup(up.Close)
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{})
	for _, target := range []string{"/mcp", "/mcp?scalar=1"} {
		resp, err := http.Post(h.url(target), "text/plain", strings.NewReader("hello\xff"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	evs := h.close()
	var raws []string
	for _, ev := range evs {
		if ev.Kind == trace.KindMessage {
			if ev.Payload != nil {
				t.Errorf("non-JSON-RPC bytes recorded as payload %s", ev.Payload)
			}
			raws = append(raws, string(ev.Bytes()))
		}
	}
	want := []string{"hello\xff", "no such endpoint\n", "hello\xff", "null"}
	if fmt.Sprint(raws) != fmt.Sprint(want) {
		t.Errorf("raw messages %q, want %q", raws, want)
	}
}

func TestProxyCloseEndsOpenStreams(t *testing.T) {
	up := sseUpstream(t, wholeFrame, func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{})
	resp := newMCPClient(t, h.url("/mcp")).openGet(context.Background(), "get")
	defer resp.Body.Close()
	buf := make([]byte, len(wholeFrame))
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	if err := h.proxy.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Errorf("the client saw its stream end cleanly when the proxy closed under it")
	}
	late, err := http.Get(h.url("/mcp"))
	if err != nil {
		t.Fatal(err)
	}
	late.Body.Close()
	if late.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a request after Close got %d, want 503", late.StatusCode)
	}
	evs := h.close()
	checkSequence(t, evs)
	abort := lastOfExchange(t, evs, 1)
	if abort.Event != trace.TransportAbort || !strings.Contains(abort.Reason, "proxy closed") {
		t.Errorf("the open stream ended with %+v, want a transport-abort saying the proxy closed", abort)
	}
}

// TestProxyCloseDoesNotWaitForAStalledClient: a client that stops reading
// a busy stream must not keep Close from returning.
func TestProxyCloseDoesNotWaitForAStalledClient(t *testing.T) {
	frame := "data: " + strings.Repeat("z", 64<<10) + "\n\n"
	up := sseUpstream(t, "", func(w http.ResponseWriter, r *http.Request) {
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, frame); err != nil {
				return
			}
		}
	})
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{})
	resp := newMCPClient(t, h.url("/mcp")).openGet(context.Background(), "get")
	defer resp.Body.Close()
	waitUntilStalled(t, h)
	closed := make(chan error, 1)
	go func() { closed <- h.proxy.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited on a client that stopped reading")
	}
	if abort := lastOfExchange(t, h.close(), 1); abort.Event != trace.TransportAbort || !strings.Contains(abort.Reason, "proxy closed") {
		t.Errorf("the stalled stream ended with %+v, want a transport-abort saying the proxy closed", abort)
	}
}

// waitUntilStalled waits until the trace stops growing: the proxy is
// blocked writing to a client that does not read.
func waitUntilStalled(t *testing.T, h *proxyHarness) {
	t.Helper()
	last := -1
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		n := len(h.trace.Bytes())
		if n == last && n > 0 {
			return
		}
		last = n
	}
	t.Fatal("the stream never stalled")
}

func TestProxyMaxMessage(t *testing.T) {
	big := "data: " + strings.Repeat("x", 100) + "\n\n"
	stream := wholeFrame + big + wholeFrame
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.Copy(w, r.Body) // echoes the (large) request body
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, stream)
	}))
	t.Cleanup(up.Close)
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{MaxMessage: 90})
	c := newMCPClient(t, h.url("/mcp"))
	get := c.do("get", c.request(context.Background(), http.MethodGet, "get", nil))
	largeBody := `{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("y", 200) + `"}`
	post := c.post("post", largeBody)
	if string(get.body) != stream || string(post.body) != largeBody {
		t.Errorf("past MaxMessage the client got %q and %q, want upstream's bytes unchanged", get.body, post.body)
	}
	evs := h.close()
	checkMessageCount(t, evs, 1) // the first frame only
	aborts := 0
	for _, ev := range evs {
		if ev.Event == trace.TransportAbort && strings.HasPrefix(ev.Reason, "recording stopped") {
			aborts++
		}
	}
	if aborts != 3 { // the stream, the request body, the response body
		t.Errorf("%d recording-stopped aborts, want 3:\n%s", aborts, dumpEvents(evs))
	}
}

// TestProxyKeepsForwardingWhenTheTraceFails: a recorder that cannot write
// must not break the session it watches, but Close reports the failure.
func TestProxyKeepsForwardingWhenTheTraceFails(t *testing.T) {
	up := echoUpstream(t, &mcp.StreamableHTTPOptions{JSONResponse: true}, false)
	u, _ := url.Parse(up.URL + "/mcp")
	p, err := NewProxy(ProxyConfig{Upstream: u, Recorder: &failingRecorder{okFirst: 1}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	defer srv.Close()
	if session, _ := InitializeThrough(t, srv.URL+"/mcp"); session == "" {
		t.Errorf("initialize through a proxy whose trace fails opened no session")
	}
	if err := p.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Close = %v, want the recorder's error", err)
	}
}

// failingRecorder accepts okFirst events, then fails every one.
type failingRecorder struct {
	mu      sync.Mutex
	okFirst int
}

func (f *failingRecorder) Record(trace.Event) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.okFirst > 0 {
		f.okFirst--
		return 0, nil
	}
	return 0, errors.New("write trace: disk full")
}

func TestNewProxyRefusesBadConfig(t *testing.T) {
	rec := trace.NewWriter(io.Discard)
	defer rec.Close()
	for _, cfg := range []ProxyConfig{
		{Recorder: rec},
		{Upstream: &url.URL{Scheme: "ftp", Host: "x"}, Recorder: rec},
		{Upstream: &url.URL{Scheme: "http", Host: "127.0.0.1:1"}},
	} {
		if _, err := NewProxy(cfg); err == nil {
			t.Errorf("NewProxy(%+v) accepted a bad config", cfg)
		}
	}
}
