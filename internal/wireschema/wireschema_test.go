package wireschema

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// schemaDir is the spec checkout's schema folder: MCPVERDICT_SCHEMA_DIR, or
// ../shared/mcp-spec/schema beside the repository.
func schemaDir(t testing.TB) string {
	if d := os.Getenv(EnvDir); d != "" {
		return d
	}
	if d := os.Getenv("MCPVERDICT_SPEC_DIR"); d != "" {
		return filepath.Join(d, "schema")
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "mcp-spec", "schema")
}

func load(t testing.TB, rev string) *Validator {
	t.Helper()
	v, err := Load(filepath.Join(schemaDir(t), rev, "schema.json"), rev)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPinsMatchTheSpecSources(t *testing.T) {
	for rev := range Pins {
		data, err := os.ReadFile(filepath.Join(schemaDir(t), rev, "schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckPin(rev, data); err != nil {
			t.Error(err)
		}
	}
	if CheckPin("2025-11-25", []byte("{}")) == nil {
		t.Error("a schema with another sha256 passes its pin")
	}
}

func TestValidMessagesPass(t *testing.T) {
	v := load(t, "2025-11-25")
	msgs := []Message{
		{Kind: Request, Method: "initialize", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)},
		{Kind: Notification, Method: "notifications/initialized", Body: []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)},
		{Kind: Result, RequestMethod: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`)},
		{Kind: Result, RequestMethod: "ping", Body: []byte(`{"jsonrpc":"2.0","id":3,"result":{}}`)},
		{Kind: Result, RequestMethod: "tools/call", Body: []byte(`{"jsonrpc":"2.0","id":5,"result":{"task":{"taskId":"t1","status":"working","createdAt":"2025-11-25T00:00:00Z","lastUpdatedAt":"2025-11-25T00:00:00Z","ttl":60000}}}`)},
		{Kind: Error, Body: []byte(`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found"}}`)},
	}
	for _, m := range msgs {
		if p, err := v.Validate(m); err != nil || len(p) > 0 {
			t.Errorf("%s: %v %+v", m.Body, err, p)
		}
	}
}

func TestInvalidMessagesNameTheirPointer(t *testing.T) {
	v := load(t, "2025-11-25")
	p, err := v.Validate(Message{Kind: Request, Method: "tools/call", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}`)})
	if err != nil || len(p) == 0 || p[0].Definition != "CallToolRequest" || p[0].Pointer != "/params" || !strings.Contains(p[0].Error, "name") {
		t.Fatalf("%v %+v", err, p)
	}
	p, _ = v.Validate(Message{Kind: Result, RequestMethod: "resources/read", Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"a://b","blob":"not base64!"}]}}`)})
	if len(p) == 0 {
		t.Error("a blob that is not base64 passes")
	}
}

// A 2025-11-25 server's tools/list result judged as 2026-07-28 lacks the
// members that revision requires.
func TestOlderResultFailsNewerRevision(t *testing.T) {
	v := load(t, "2026-07-28")
	p, err := v.Validate(Message{Kind: Result, RequestMethod: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`)})
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	for _, x := range p {
		text += x.Pointer + " " + x.Error + "\n"
	}
	for _, member := range []string{"cacheScope", "resultType", "ttlMs"} {
		if !strings.Contains(text, member) {
			t.Errorf("no problem names %s:\n%s", member, text)
		}
	}
}

func TestFindSearchesInOrder(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(b, "2025-11-25"), 0o755)
	os.WriteFile(filepath.Join(b, "2025-11-25", "schema.json"), []byte("{}"), 0o644)
	p, err := Find([]string{a, b}, "2025-11-25")
	if err != nil || !strings.HasPrefix(p, b) {
		t.Errorf("Find = %q, %v", p, err)
	}
	if _, err := Find([]string{a}, "2025-11-25"); err == nil {
		t.Error("Find in an empty directory succeeds")
	}
}

// Every pinned revision's schema compiles and judges messages, whether it
// keeps its definitions in $defs (2020-12) or definitions (draft-07) and
// whatever it names the result and error envelopes.
func TestEveryPinnedRevisionJudges(t *testing.T) {
	for rev := range Pins {
		v := load(t, rev)
		pong := `{"jsonrpc":"2.0","id":1,"result":{}}`
		if rev >= "2026-07-28" {
			pong = `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}`
		}
		good := []Message{
			{Kind: Request, Method: "ping", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)},
			{Kind: Result, RequestMethod: "ping", Body: []byte(pong)},
			{Kind: Error, Body: []byte(`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}`)},
		}
		for _, m := range good {
			if p, err := v.Validate(m); err != nil || len(p) > 0 {
				t.Errorf("%s: %s: %v %+v", rev, m.Body, err, p)
			}
		}
		bad := Message{Kind: Error, Body: []byte(`{"jsonrpc":"2.0","id":2,"error":{"message":"no code"}}`)}
		if p, err := v.Validate(bad); err != nil || len(p) == 0 {
			t.Errorf("%s: an error without a code passes: %v", rev, err)
		}
	}
}
