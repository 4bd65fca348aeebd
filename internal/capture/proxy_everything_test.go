package capture

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// TestProxyRecordsServerEverything puts the proxy in front of the real
// TypeScript server-everything and runs one whole session through it: the
// trace must hold every message in order with SSE ids kept, each recorded
// before the client saw it, and the client must get exactly upstream's bytes.
func TestProxyRecordsServerEverything(t *testing.T) {
	upstream := peers.EverythingHTTP(t)
	checkLoopbackOnly(t, upstream)
	h := startProxy(t, upstream, ProxyConfig{})
	c := newMCPClient(t, h.url("/mcp"))
	getFrames := make(chan clientFrame, 64)
	c.onFrame = func(name string, f clientFrame) {
		checkRecordedFirst(t, h, f)
		if name == "get" {
			getFrames <- f
		}
	}

	s := runEverythingSession(t, c, getFrames)
	evs := h.close()

	checkSequence(t, evs)
	for i, want := range s.exchanges {
		checkExchange(t, evs, int64(i+1), want)
	}
	checkSessions(t, evs, c.session)
	checkDeleteClosesSession(t, evs, int64(len(s.exchanges)), c.session)
	for name, got := range s.received {
		if sent := h.tap.body(name); !bytes.Equal(got, sent) {
			t.Errorf("%s: the client received %q, upstream sent %q", name, got, sent)
		}
	}
}

// everythingSession is what the client sent and received, exchange by
// exchange in the order the proxy numbered them.
type everythingSession struct {
	exchanges []wantExchange
	received  map[string][]byte
}

// runEverythingSession runs initialize, notifications/initialized, the GET
// stream, tools/list, a tools/call, a tool that logs on the GET stream, and
// DELETE.
func runEverythingSession(t *testing.T, c *mcpClient, getFrames <-chan clientFrame) everythingSession {
	s := everythingSession{received: map[string][]byte{}}
	post := func(name, msg string, status int) *clientResponse {
		t.Helper()
		resp := c.post(name, msg)
		if resp.status != status {
			t.Fatalf("%s: status %d, want %d: %s", name, resp.status, status, resp.body)
		}
		s.received[name] = resp.body
		s.exchanges = append(s.exchanges, wantExchange{method: http.MethodPost, request: msg, resp: resp, streamEnd: resp.frames != nil})
		return resp
	}
	post("initialize", initializeRequest, http.StatusOK)
	if c.session == "" {
		t.Fatal("server-everything named no session in its initialize response")
	}
	c.protocol = "2025-11-25"
	post("initialized", initializedNote, http.StatusAccepted)

	getDone, getResp := openGetStream(t, c, &s)
	post("tools/list", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, http.StatusOK)
	call := post("tools/call", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"through the proxy"}}}`, http.StatusOK)
	if msgs := call.messages(); len(msgs) == 0 || !strings.Contains(msgs[len(msgs)-1], "through the proxy") {
		t.Errorf("tools/call echo answered %q", msgs)
	}
	post("toggle-logging", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"toggle-simulated-logging","arguments":{}}}`, http.StatusOK)
	waitForData(t, getFrames, "notifications/message")

	del := c.delete("delete")
	s.received["delete"] = del.body
	s.exchanges = append(s.exchanges, wantExchange{method: http.MethodDelete, resp: del})
	got := <-getDone
	if got.err != nil {
		t.Errorf("the GET stream did not end cleanly when the session did: %v", got.err)
	}
	s.received["get"] = got.body
	getResp.frames = got.frames
	s.exchanges[getIndex].streamEnd = got.err == nil
	return s
}

// getIndex is the GET stream's place among the session's exchanges.
const getIndex = 2

// streamRead is what the client read from a stream until it ended.
type streamRead struct {
	body   []byte
	frames []clientFrame
	err    error
}

// openGetStream opens the GET stream, the session's third exchange, and
// reads it in the background until upstream ends it.
func openGetStream(t *testing.T, c *mcpClient, s *everythingSession) (<-chan streamRead, *clientResponse) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	resp := c.openGet(ctx, "get")
	if resp.StatusCode != http.StatusOK || !isEventStream(resp.Header) {
		t.Fatalf("GET: status %d content-type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	got := &clientResponse{status: resp.StatusCode, header: resp.Header}
	s.exchanges = append(s.exchanges, wantExchange{method: http.MethodGet, resp: got})
	done := make(chan streamRead, 1)
	go func() {
		defer resp.Body.Close()
		body, frames, err := c.readStream("get", resp.Body)
		done <- streamRead{body, frames, err}
	}()
	return done, got
}

// waitForData waits for a frame on the GET stream whose data holds want.
func waitForData(t *testing.T, frames <-chan clientFrame, want string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case f := <-frames:
			if strings.Contains(f.data, want) {
				return
			}
		case <-timeout:
			t.Fatalf("no %s arrived on the GET stream", want)
		}
	}
}

// checkSessions: the initialize request's events carry no session (it was
// not known yet), every other event of an exchange carries the session.
func checkSessions(t *testing.T, evs []trace.Event, session string) {
	t.Helper()
	for _, ev := range evs {
		want := session
		switch {
		case ev.Exchange == 0:
			want = ""
		case ev.Exchange == 1 && ev.Direction == trace.ClientToServer:
			want = ""
		}
		if ev.Session != want {
			t.Errorf("event %d (exchange %d) has session %q, want %q", ev.Seq, ev.Exchange, ev.Session, want)
		}
		if ev.Exchange > 1 && ev.Kind == trace.KindHTTP && ev.Method != "" {
			if ev.Headers["mcp-session-id"] != session || ev.Headers["mcp-protocol-version"] != "2025-11-25" {
				t.Errorf("request %d recorded headers %v, want mcp-session-id and mcp-protocol-version", ev.Exchange, ev.Headers)
			}
		}
	}
}

// checkDeleteClosesSession: the accepted DELETE records the session's
// transport-close, without a stream.
func checkDeleteClosesSession(t *testing.T, evs []trace.Event, exchange int64, session string) {
	t.Helper()
	for _, ev := range ofExchange(evs, exchange) {
		if ev.Event == trace.TransportClose && ev.Session == session && ev.Stream == "" {
			return
		}
	}
	t.Errorf("the DELETE exchange %d recorded no transport-close of session %q:\n%s", exchange, session, dumpEvents(ofExchange(evs, exchange)))
}

// checkLoopbackOnly fails if the upstream port answers on an address other
// than loopback: the preload must have kept node off the network.
func checkLoopbackOnly(t *testing.T, endpoint string) {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		ip, ok := a.(*net.IPNet)
		if !ok || ip.IP.IsLoopback() || ip.IP.To4() == nil {
			continue
		}
		conn, err := net.DialTimeout("tcp", net.JoinHostPort(ip.IP.String(), u.Port()), time.Second)
		if err == nil {
			conn.Close()
			t.Errorf("server-everything answers on %s: the loopback preload did not apply", ip.IP)
		}
	}
}
