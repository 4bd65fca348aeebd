package exampleserver

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
)

// cancellations remembers the requests a stdio client has cancelled, so
// that their responses can be withheld: the cancellation utility says a
// receiver SHOULD NOT answer a cancelled request, but the SDK's JSON-RPC
// layer always does.
//
// Over streamable HTTP the SDK ends a request's response stream only by
// writing its response, so the HTTP server keeps the SDK's behaviour.
type cancellations struct {
	mu  sync.Mutex
	ids map[string]bool // canonical ids, see canonicalID
}

// maxPendingCancellations bounds the ids kept for cancellations that came
// after their response (whose ids will never be written again).
const maxPendingCancellations = 1024

// note records the request a notifications/cancelled line names, if the
// line is one.
func (c *cancellations) note(line []byte) {
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ids == nil || len(c.ids) >= maxPendingCancellations {
		c.ids = map[string]bool{}
	}
	c.ids[id] = true
}

// withhold reports whether msg is the response to a cancelled request, and
// forgets the cancellation if so.
func (c *cancellations) withhold(msg []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.ids) == 0 {
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
	if !ok || !c.ids[id] {
		return false
	}
	delete(c.ids, id)
	return true
}

// canonicalID spells a JSON-RPC id so that the same id matches however it
// was written: "7" (a string) and 7 (a number) are different ids, 7 and
// 7.0 the same one. Anything else (null, booleans, objects) is no id.
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
		return "", false
	}
	return "n:" + strconv.FormatFloat(n, 'g', -1, 64), true
}
