package exampleserver

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestCanonicalID(t *testing.T) {
	same := [][2]string{{`7`, `7.0`}, {`"7"`, `"7"`}, {`1e2`, `100`}}
	for _, pair := range same {
		a, okA := canonicalID(json.RawMessage(pair[0]))
		b, okB := canonicalID(json.RawMessage(pair[1]))
		if !okA || !okB || a != b {
			t.Errorf("%s and %s should be the same id: %q %q", pair[0], pair[1], a, b)
		}
	}
	if mustID(t, `7`) == mustID(t, `"7"`) {
		t.Errorf("7 and \"7\" are different ids")
	}
	for _, bad := range []string{`null`, `true`, `{}`, ``, `[1]`} {
		if _, ok := canonicalID(json.RawMessage(bad)); ok {
			t.Errorf("%q accepted as an id", bad)
		}
	}
}

func mustID(t *testing.T, raw string) string {
	t.Helper()
	id, ok := canonicalID(json.RawMessage(raw))
	if !ok {
		t.Fatalf("%s is an id", raw)
	}
	return id
}

func TestWithholdDropsOnlyTheCancelledResponse(t *testing.T) {
	var c cancellations
	c.note([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`))
	c.note([]byte(`{"jsonrpc":"2.0","method":"ping","params":{"note":"notifications/cancelled"}}`)) // not one
	for _, tt := range []struct {
		msg      string
		withheld bool
	}{
		{`{"jsonrpc":"2.0","id":5,"method":"roots/list"}`, false},           // a request of the server's, same id
		{`{"jsonrpc":"2.0","id":4,"result":{}}`, false},                     // another response
		{`{"jsonrpc":"2.0","id":"5","result":{}}`, false},                   // "5" is not 5
		{`{"jsonrpc":"2.0","id":5,"error":{"code":0,"message":"x"}}`, true}, // the cancelled one
		{`{"jsonrpc":"2.0","id":5,"result":{}}`, false},                     // the cancellation was used up
	} {
		if got := c.withhold([]byte(tt.msg + "\n")); got != tt.withheld {
			t.Errorf("withhold(%s) = %v", tt.msg, got)
		}
	}
}

func TestCancellationsStayBounded(t *testing.T) {
	var c cancellations
	for i := range maxPendingCancellations + 10 {
		line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": map[string]any{"requestId": i}})
		c.note(line)
	}
	if len(c.ids) > maxPendingCancellations {
		t.Errorf("%d cancellations kept", len(c.ids))
	}
	if !c.withhold(bytes.TrimSpace([]byte(`{"jsonrpc":"2.0","id":1030,"result":{}}`))) {
		t.Errorf("the latest cancellations must be kept")
	}
}
