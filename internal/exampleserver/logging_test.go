//lint:file-ignore SA1019 the tests exercise logging, deprecated only from 2026-07-28 on.

package exampleserver

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func setLevel(t *testing.T, cs *mcp.ClientSession, level mcp.LoggingLevel) error {
	t.Helper()
	return cs.SetLoggingLevel(testContext(t), &mcp.SetLoggingLevelParams{Level: level})
}

func TestLogMessagesFollowTheLevel(t *testing.T) {
	cs, n := connect(t, rev20251125)
	remember := map[string]any{"name": "log-test", "line": "one"}
	callTool(t, cs, "remember", remember)
	quiet(t, n.logs, "log message before any logging/setLevel")

	if err := setLevel(t, cs, "info"); err != nil {
		t.Fatal(err)
	}
	callTool(t, cs, "remember", remember)
	msg := receive(t, n.logs, "info log from remember")
	data, _ := msg.Data.(map[string]any)
	if msg.Level != "info" || msg.Logger != "notes" || data["note"] != "log-test" || data["added"] != false {
		t.Errorf("log = %+v", msg)
	}

	if err := setLevel(t, cs, "warning"); err != nil {
		t.Fatal(err)
	}
	callTool(t, cs, "remember", remember)
	quiet(t, n.logs, "info log at level warning")
	callTool(t, cs, "lookup_weather", map[string]any{"city": "Atlantis"})
	if msg := receive(t, n.logs, "warning from lookup_weather"); msg.Level != "warning" || msg.Logger != "weather" {
		t.Errorf("log = %+v", msg)
	}
}

func TestUnknownLogLevelIsInvalidParams(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	wantCode(t, setLevel(t, cs, "verbose"), -32602, "logging/setLevel verbose")
}

// Under 2026-07-28 a request asks for log messages in its own _meta.
func TestLogLevelPerRequest(t *testing.T) {
	cs, n := connect(t, rev20260728)
	call := func(level string) error {
		params := &mcp.CallToolParams{Name: "forget", Arguments: map[string]any{"name": "nothing"}}
		if level != "" {
			params.Meta = mcp.Meta{mcp.MetaKeyLogLevel: level}
		}
		_, err := cs.CallTool(testContext(t), params)
		return err
	}
	if err := call(""); err != nil {
		t.Fatal(err)
	}
	quiet(t, n.logs, "log message for a request without a log level")
	if err := call("debug"); err != nil {
		t.Fatal(err)
	}
	if msg := receive(t, n.logs, "notice from forget"); msg.Level != "notice" {
		t.Errorf("log = %+v", msg)
	}
	wantCode(t, call("loud"), -32602, "unknown _meta log level")
}
