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

// TestSwitchboardHoldsTheBodyBeforeTheResponse sends a request body in two
// parts, the second only after the response has had time to start, to an
// upstream that answers with an event stream at once, as the Go SDK's
// server does. Streamed through, the body raced the response header: the
// switchboard's server closed the half-read body when it flushed the
// header, the transport took that for a broken request and cut the
// connection under the response, and the suite's client saw no result.
func TestSwitchboardHoldsTheBodyBeforeTheResponse(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(echoAsEventStream))
	defer upstream.Close()
	target, _ := url.Parse(upstream.URL)
	sb := newSwitchboard("", upstream.URL, t.TempDir(), io.Discard)
	sb.current = sb.newRecorder("two-part-body", nil, target)
	front := httptest.NewServer(sb)
	defer front.Close()

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`
	half := len(body) / 2
	conn, err := net.Dial("tcp", front.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:half])
	time.Sleep(200 * time.Millisecond)
	io.WriteString(conn, body[half:])

	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("the response was cut after %q: %v", got, err)
	}
	if want := "data: " + body + "\n\n"; string(got) != want {
		t.Fatalf("the response is %q, want %q", got, want)
	}
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
