package exampleserver

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"sync"
)

// cancelFilter keeps the stdio server from answering a request the client
// has cancelled. The cancellation utility says a receiver SHOULD NOT send a
// response for a cancelled request, but the SDK's JSON-RPC layer always
// writes one. The filter sits on the byte streams, not inside the SDK: it
// notes the request ids of the notifications/cancelled lines the server
// reads and drops the response line for such an id when the server writes
// it.
//
// Over streamable HTTP the SDK ends a request's response stream only by
// writing its response, so the HTTP server keeps the SDK's behaviour.
type cancelFilter struct {
	mu        sync.Mutex
	cancelled map[string]bool // canonical ids, see canonicalID
}

// maxPendingCancellations bounds the ids kept for cancellations that came
// after their response (whose ids will never be written again).
const maxPendingCancellations = 1024

// maxWatchedLine bounds what the watcher buffers of one line: a
// cancellation notification is small, and longer lines are not one.
const maxWatchedLine = 64 << 10

func newCancelFilter() *cancelFilter {
	return &cancelFilter{cancelled: map[string]bool{}}
}

// watch returns in, unchanged, noting each cancellation that passes.
func (f *cancelFilter) watch(in io.Reader) io.Reader {
	return &cancelWatcher{in: in, filter: f}
}

// guard returns out, minus the responses to cancelled requests. The SDK
// writes each message with one Write call, newline included.
func (f *cancelFilter) guard(out io.Writer) io.Writer {
	return &responseGuard{out: out, filter: f}
}

func (f *cancelFilter) noteCancellation(line []byte) {
	if !bytes.Contains(line, []byte(`notifications/cancelled`)) {
		return
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method != "notifications/cancelled" {
		return
	}
	id, ok := canonicalID(msg.Params.RequestID)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.cancelled) >= maxPendingCancellations {
		clear(f.cancelled)
	}
	f.cancelled[id] = true
}

// withhold reports whether msg is the response to a cancelled request, and
// forgets the cancellation if so.
func (f *cancelFilter) withhold(msg []byte) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.cancelled) == 0 {
		return false
	}
	var resp struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &resp) != nil || resp.Method != "" {
		return false // a request or notification, or not one message
	}
	id, ok := canonicalID(resp.ID)
	if !ok || !f.cancelled[id] {
		return false
	}
	delete(f.cancelled, id)
	return true
}

// canonicalID spells a JSON-RPC id so that the same id matches however it
// was written: "7" (a string) and 7 (a number) are different ids, 7 and
// 7.0 the same one.
func canonicalID(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s:" + s, true
	}
	var n float64
	isNumber := raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')
	if !isNumber || json.Unmarshal(raw, &n) != nil {
		return "", false // null, booleans, objects and arrays are no ids
	}
	return "n:" + strconv.FormatFloat(n, 'g', -1, 64), true
}

type cancelWatcher struct {
	in       io.Reader
	filter   *cancelFilter
	line     []byte
	overlong bool // the current line outgrew maxWatchedLine
}

func (w *cancelWatcher) Read(p []byte) (int, error) {
	n, err := w.in.Read(p)
	w.scan(p[:n])
	return n, err
}

// scan splits what was read into lines and looks at each complete one.
func (w *cancelWatcher) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			w.keep(b)
			return
		}
		w.keep(b[:i])
		if !w.overlong {
			w.filter.noteCancellation(w.line)
		}
		w.line, w.overlong = w.line[:0], false
		b = b[i+1:]
	}
}

func (w *cancelWatcher) keep(b []byte) {
	if w.overlong || len(w.line)+len(b) > maxWatchedLine {
		w.line, w.overlong = w.line[:0], true
		return
	}
	w.line = append(w.line, b...)
}

type responseGuard struct {
	out    io.Writer
	filter *cancelFilter
}

func (g *responseGuard) Write(p []byte) (int, error) {
	if g.filter.withhold(p) {
		return len(p), nil
	}
	return g.out.Write(p)
}
