package capture

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestProxyStreamsALongBodyWhileTheResponseRuns sends a body past
// MaxMessage, which the proxy streams on instead of holding, to an upstream
// that starts its event stream before it reads the body: half of it first,
// the rest once the response header has arrived. Half duplex, net/http's
// server would drain and close the client's body when the proxy sent the
// response header on: here that holds the header back until the body is
// whole; with a client that sends all at once, racing the transport's last
// read of the body, it cut the connection under the response.
func TestProxyStreamsALongBodyWhileTheResponseRuns(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		_ = rc.EnableFullDuplex()
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_ = rc.Flush()
		b, err := io.ReadAll(r.Body)
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"got\",\"params\":{\"bytes\":%d,\"err\":%q}}\n\n", len(b), fmt.Sprint(err))
	}))
	t.Cleanup(up.Close)
	h := startProxy(t, up.URL+"/mcp", ProxyConfig{MaxMessage: 90})

	body := `{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("y", 200) + `"}`
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.server.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:150])
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response header while the request body was half sent (%v): the body is read half duplex", err)
	}
	io.WriteString(conn, body[150:])
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(resp.Body)
	want := fmt.Sprintf(`"bytes":%d,"err":"<nil>"`, len(body))
	if err != nil || !strings.Contains(string(got), want) {
		t.Fatalf("the client got %q (%v); want the upstream to report %s", got, err, want)
	}
}
