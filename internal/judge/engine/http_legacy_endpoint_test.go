package engine

import (
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// An endpoint event's URI is resolved against the GET that opened the
// connection, and a POST is held to its path (and its query when the
// recorder kept one).
func TestEndpointTarget(t *testing.T) {
	get := &trace.Event{Path: "/mcp/sse"}
	cases := []struct {
		data, post string
		ok, match  bool
	}{
		{"/message?sessionId=1", "/message", true, true},
		{"/message?sessionId=1", "/message?sessionId=1", true, true},
		{"/message?sessionId=1", "/message?sessionId=2", true, false},
		{"messages", "/mcp/messages", true, true},
		{"../messages", "/messages", true, true},
		{"http://127.0.0.1:9/rpc", "/rpc", true, true},
		{"/message", "/sse", true, false},
		{"", "", false, false},
		{"send to /message", "", false, false},
		{"ftp://host/message", "", false, false},
	}
	for _, c := range cases {
		target, err := EndpointTarget(get, c.data)
		if (err == "") != c.ok {
			t.Errorf("%q: error %q, want ok %v", c.data, err, c.ok)
			continue
		}
		if c.ok && target.Matches(c.post) != c.match {
			t.Errorf("%q resolved to %+v: matches(%q) = %v, want %v", c.data, target, c.post, !c.match, c.match)
		}
	}
}
