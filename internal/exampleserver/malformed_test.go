package exampleserver

import (
	"encoding/json"
	"testing"
)

func TestRejectLine(t *testing.T) {
	tests := []struct {
		line string
		code int64  // 0: the line passes to the SDK
		id   string // the id the error echoes, "" for none
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, ""},
		{`{"jsonrpc":"2.0","id":"a","method":"ping","params":{}}`, 0, ""},
		{`{"jsonrpc":"2.0","id":1e2,"method":"ping"}`, 0, ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, ""}, // from 2025-06-18 on
		{`{"jsonrpc":"2.0","id":3,"result":{}}`, 0, ""},
		{``, 0, ""},
		{`not json`, -32700, ""},
		{`{"jsonrpc":"2.0","id":1,`, -32700, ""},
		{`[1,`, -32700, ""},
		{`"a string"`, -32600, ""},
		{`42`, -32600, ""},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, -32600, "3"},
		{`{"id":"x","method":"ping"}`, -32600, `"x"`},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, ""},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, ""},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, ""},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600, ""},
		{`{"jsonrpc":"2.0","id":3,"method":5}`, -32600, "3"},
		{`{"jsonrpc":2,"id":3,"method":"ping"}`, -32600, ""},
	}
	for _, tt := range tests {
		reply := rejectLine([]byte(tt.line), false)
		if tt.code == 0 {
			if reply != nil {
				t.Errorf("%s: rejected with %s", tt.line, reply)
			}
			continue
		}
		var resp struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct {
				Code    int64  `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(reply, &resp); err != nil {
			t.Errorf("%s: reply %q is not JSON", tt.line, reply)
			continue
		}
		if resp.JSONRPC != "2.0" || resp.Error.Code != tt.code || string(resp.ID) != tt.id || resp.Error.Message == "" {
			t.Errorf("%s: reply %s, want code %d and id %q", tt.line, reply, tt.code, tt.id)
		}
	}
}

// A broken response from the client is dropped without an answer.
func TestRejectLineDropsBrokenResponses(t *testing.T) {
	reply := rejectLine([]byte(`{"jsonrpc":"2.0","id":{},"result":{}}`), false)
	if reply == nil || len(reply) != 0 {
		t.Errorf("reply = %q, want dropped silently", reply)
	}
}

func TestRejectLinePassesBatchesWhereTheRevisionHasThem(t *testing.T) {
	if reply := rejectLine([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`), true); reply != nil {
		t.Errorf("a 2025-03-26 batch was rejected: %s", reply)
	}
}
