package calibrate

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestSwitchboardSendsTheWholeBodyWhileTheResponseRuns sends half a request
// body to an upstream that answers with an event stream at once, as the Go
// SDK's server does, waits for the response header, and only then sends the
// rest. Half duplex, the switchboard's server drained and closed the request
// body when the response header went out: here that holds the header back
// until the body is whole; in the suite's runs, racing the transport's last
// read of the body, it cut the connection under the response and the
// suite's client saw no result.
func TestSwitchboardSendsTheWholeBodyWhileTheResponseRuns(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(echoAsEventStream))
	defer upstream.Close()
	target, _ := url.Parse(upstream.URL)
	sb := newSwitchboard("", upstream.URL, t.TempDir(), io.Discard)
	sb.current = sb.newRecorder("two-part-body", nil, target)
	front := httptest.NewServer(sb)
	defer front.Close()

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`
	got := postInTwoParts(t, front.Listener.Addr().String(), body, len(body)/2)
	if want := "data: " + body + "\n\n"; got != want {
		t.Fatalf("the response is %q, want %q", got, want)
	}
}

// postInTwoParts posts body to addr, the bytes past split only once the
// response header has arrived, and returns the response body.
func postInTwoParts(t *testing.T, addr, body string, split int) string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:split])
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response header while the request body was half sent (%v): the body is read half duplex", err)
	}
	io.WriteString(conn, body[split:])
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("the response was cut after %q: %v", got, err)
	}
	return string(got)
}

// echoAsEventStream sends its event-stream header before it reads the
// request, then the request back as one event.
func echoAsEventStream(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	if err := rc.EnableFullDuplex(); err != nil {
		log.Print(err)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	rc.Flush()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	io.WriteString(w, "data: "+strings.TrimSpace(string(b))+"\n\n")
}
