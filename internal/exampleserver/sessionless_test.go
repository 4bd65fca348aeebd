package exampleserver

import (
	"strings"
	"testing"
)

const discoverParams = `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`

// A session that began with server/discover speaks 2026-07-28, where a
// request without the per-request _meta is malformed.
func TestDiscoveredSessionRejectsRequestWithoutProtocolMeta(t *testing.T) {
	s := startStdio(t)
	if resp := s.request(1, "server/discover", discoverParams); resp.msg.Result == nil {
		t.Fatalf("server/discover answered %s", resp.raw)
	}
	resp := s.request(2, "tools/list", `{}`)
	if resp.msg.Error == nil || !strings.Contains(string(resp.raw), `"code":-32602`) {
		t.Fatalf("tools/list without _meta after discover answered %s, want error -32602", resp.raw)
	}
	withMeta := s.request(3, "tools/list", discoverParams)
	if withMeta.msg.Result == nil {
		t.Errorf("tools/list with _meta answered %s", withMeta.raw)
	}
}

// A session that shook hands keeps the 2025-11-25 rules: no _meta needed.
func TestInitializedSessionNeedsNoProtocolMeta(t *testing.T) {
	s := startStdio(t)
	s.initialize()
	if resp := s.request(2, "tools/list", `{}`); resp.msg.Result == nil {
		t.Errorf("tools/list after initialize answered %s", resp.raw)
	}
}
