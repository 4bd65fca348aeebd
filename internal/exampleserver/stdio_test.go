package exampleserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// stdioSession drives RunStdio over pipes with hand-written JSON-RPC, so a
// test sees exactly the bytes a stdio client would.
type stdioSession struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func startStdio(t *testing.T) *stdioSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioSession{t: t, in: inW, lines: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		s.done <- RunStdio(testContext(t), inR, outW)
		outW.Close()
	}()
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { s.close() })
	return s
}

// close ends the session as a client does, by closing the server's input,
// and returns what RunStdio returned.
func (s *stdioSession) close() error {
	s.in.Close()
	select {
	case err := <-s.done:
		s.done <- err // for a second caller
		return err
	case <-time.After(testTimeout):
		s.t.Fatal("RunStdio did not return after its input closed")
		return nil
	}
}

func (s *stdioSession) send(format string, args ...any) {
	s.t.Helper()
	if _, err := fmt.Fprintf(s.in, format+"\n", args...); err != nil {
		s.t.Fatalf("writing to the server: %v", err)
	}
}

// line is one message the server wrote, raw and decoded.
type line struct {
	raw string
	msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
}

func (s *stdioSession) next() line {
	s.t.Helper()
	raw, ok := receiveOK(s.t, s.lines, "a message from the server")
	if !ok {
		s.t.Fatal("the server closed its output")
	}
	var l line
	l.raw = raw
	if err := json.Unmarshal([]byte(raw), &l.msg); err != nil {
		s.t.Fatalf("server wrote a line that is not JSON: %q", raw)
	}
	return l
}

func receiveOK[T any](t *testing.T, ch <-chan T, what string) (T, bool) {
	t.Helper()
	select {
	case v, ok := <-ch:
		return v, ok
	case <-time.After(testTimeout):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero, false
	}
}

// response reads up to the response with the given id, returning it and
// every message before it.
func (s *stdioSession) response(id int) (line, []line) {
	s.t.Helper()
	var before []line
	for {
		l := s.next()
		if l.msg.Method == "" && string(l.msg.ID) == fmt.Sprint(id) {
			return l, before
		}
		before = append(before, l)
	}
}

func (s *stdioSession) request(id int, method, params string) line {
	s.t.Helper()
	s.send(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
	resp, _ := s.response(id)
	return resp
}

func (s *stdioSession) initialize() line {
	s.t.Helper()
	resp := s.request(0, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wire-test","version":"1"}}`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return resp
}

func TestStdioAnswersInitializeAndEndsWithItsInput(t *testing.T) {
	s := startStdio(t)
	resp := s.initialize()
	var result struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct{ Name string }
		Instructions    string
	}
	if err := json.Unmarshal(resp.msg.Result, &result); err != nil {
		t.Fatalf("initialize answered %s", resp.raw)
	}
	if result.ProtocolVersion != "2025-11-25" || result.ServerInfo.Name != serverName || result.Instructions == "" {
		t.Errorf("initialize result = %s", resp.msg.Result)
	}
	if err := s.close(); err != nil {
		t.Errorf("RunStdio returned %v after a clean end of input", err)
	}
}

// Over stdio the server sends no response to a request the client has
// cancelled, as the cancellation utility asks (the SDK alone would).
func TestStdioWithholdsResponseToCancelledRequest(t *testing.T) {
	s := startStdio(t)
	s.initialize()
	s.send(`{"jsonrpc":"2.0","id":"count","method":"tools/call","params":{"name":"slow_count","arguments":{"to":10,"interval_ms":50},"_meta":{"progressToken":1}}}`)
	if first := s.next(); first.msg.Method != "notifications/progress" {
		t.Fatalf("want progress first, got %s", first.raw)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"count","reason":"test"}}`)
	// Uncancelled, the count would be done in 500 ms: any response to it,
	// cancelled or not, would be out before the ping's.
	time.Sleep(700 * time.Millisecond)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	_, before := s.response(1)
	for _, l := range before {
		if string(l.msg.ID) == `"count"` {
			t.Errorf("response to the cancelled request was sent: %s", l.raw)
		}
	}
}

func TestStdioEndsCleanlyWhenItsContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() { done <- RunStdio(ctx, inR, io.Discard) }()
	cancel()
	if err := receive(t, done, "RunStdio to return"); err != nil {
		t.Errorf("RunStdio returned %v when its context ended", err)
	}
}

// A malformed line gets an error response and the session goes on; the SDK
// alone would end it without a word.
func TestStdioAnswersMalformedLinesAndCarriesOn(t *testing.T) {
	s := startStdio(t)
	s.initialize()
	for i, bad := range []string{
		`not json`,
		`{"jsonrpc":"1.0","id":"old","method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, // batching ended with 2025-06-18
	} {
		s.send("%s", bad)
		if l := s.next(); l.msg.Error == nil {
			t.Errorf("%s: answered %s, want an error", bad, l.raw)
		}
		if resp := s.request(100+i, "ping", `{}`); resp.msg.Result == nil {
			t.Fatalf("after %s the session is gone: %s", bad, resp.raw)
		}
	}
}

func TestStdioSkipsOversizedLines(t *testing.T) {
	t.Parallel()
	s := startStdio(t)
	s.initialize()
	oversized := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", maxLineLength) + `"}}` + "\n"
	go io.WriteString(s.in, oversized) // the pipe takes it only as the guard reads
	if l := s.next(); !strings.Contains(string(l.msg.Error), "-32600") {
		t.Errorf("an oversized line was answered %.200s", l.raw)
	}
	if resp := s.request(2, "ping", `{}`); resp.msg.Result == nil {
		t.Errorf("the session did not survive an oversized line: %s", resp.raw)
	}
}

// Under 2025-03-26, which requires servers to accept batches, a batch is
// answered in full.
func TestStdioAcceptsBatchesUnder20250326(t *testing.T) {
	s := startStdio(t)
	s.request(0, "initialize", `{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"wire-test","version":"1"}}`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	raw, _ := receiveOK(t, s.lines, "the batch response")
	var batch []struct{ ID int }
	if err := json.Unmarshal([]byte(raw), &batch); err != nil || len(batch) != 2 || batch[1].ID != 2 {
		t.Errorf("batch answered %s", raw)
	}
}

// A client that asks for a version the server does not know negotiates
// 2025-11-25 and gets 2025-11-25: no 2026-07-28 fields or notification
// routing.
func TestUnknownRequestedVersionIsServedAsNegotiated(t *testing.T) {
	s := startStdio(t)
	resp := s.request(0, "initialize", `{"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"wire-test","version":"1"}}`)
	if !strings.Contains(string(resp.msg.Result), `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("initialize answered %s", resp.raw)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.request(1, "resources/subscribe", `{"uri":"notes://x"}`)
	call, before := s.response(requestID(s, 2, "tools/call", `{"name":"remember","arguments":{"name":"x","line":"y"}}`))
	if strings.Contains(string(call.msg.Result), "resultType") {
		t.Errorf("a 2025-11-25 result carries resultType: %s", call.raw)
	}
	var methods []string
	for _, l := range before {
		methods = append(methods, l.msg.Method)
		if strings.Contains(l.raw, "subscriptionId") {
			t.Errorf("a 2025-11-25 notification carries a subscription id: %s", l.raw)
		}
	}
	if !slices.Contains(methods, "notifications/resources/updated") {
		t.Errorf("no resources/updated among %v", methods)
	}
	if l := s.next(); l.msg.Method != "notifications/resources/list_changed" {
		t.Errorf("want list_changed for the new note, got %s", l.raw)
	}
}

func TestHandshakeVersion(t *testing.T) {
	for requested, want := range map[string]string{
		"2025-11-25": "2025-11-25",
		"2025-06-18": "2025-06-18",
		"2024-11-05": "2024-11-05",
		"2026-07-28": "2025-11-25",
		"2099-01-01": "2025-11-25",
		"1999-01-01": "2025-11-25",
		"":           "2025-11-25",
	} {
		if got := handshakeVersion(requested); got != want {
			t.Errorf("handshakeVersion(%q) = %q, want %q", requested, got, want)
		}
	}
}

func TestStdioAnswersUncancelledRequests(t *testing.T) {
	s := startStdio(t)
	s.initialize()
	// A cancellation for some other id must not swallow this response.
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	resp := s.request(1, "tools/call", `{"name":"add","arguments":{"a":1,"b":2}}`)
	if !strings.Contains(string(resp.msg.Result), `"sum":3`) {
		t.Errorf("add answered %s", resp.raw)
	}
}
