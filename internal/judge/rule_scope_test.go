package judge

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// scopeProbeTrace holds messages of every kind, from both parties, that
// the scoped rules look at in their own sessions: requests and their
// answers, a cancellation, a log message, an error, an invalid message.
var scopeProbeTrace = strings.Join([]string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","capabilities":{},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"c1"}}`,
	`{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}],"nextCursor":"c2"}}`,
	`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":"s1","method":"ping"}`,
	`{"jsonrpc":"2.0","id":4,"result":{}}`,
	`{"jsonrpc":"2.0","id":"s1","result":{}}`,
	`{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`,
	`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"t","arguments":{}}}`,
	`{"jsonrpc":"2.0","id":6,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"}},"requestState":"x"}}`,
	`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{},"inputResponses":{"a":{"roots":[]}},"requestState":"x"}}`,
	`{"jsonrpc":"2.0","id":7,"error":{"code":-32002,"message":"gone"}}`,
	`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`,
	`{"jsonrpc":"2.0","id":8}`,
}, "\n")

// scopeProbeEvents reads scopeProbeTrace as a trace, each line sent by the
// client and by the server in turn.
func scopeProbeEvents(t *testing.T) []*trace.Event {
	var lines []string
	for _, payload := range strings.Split(scopeProbeTrace, "\n") {
		for _, dir := range []string{"client-to-server", "server-to-client"} {
			lines = append(lines, `{"seq":`+strconv.Itoa(len(lines))+`,"direction":"`+dir+`","transport":"stdio","kind":"message","payload":`+payload+`}`)
		}
	}
	r := trace.NewReader(bytes.NewReader([]byte(strings.Join(lines, "\n")+"\n")), "probe.jsonl")
	var out []*trace.Event
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
}

// A rule scoped to one kind of session must do nothing with the messages
// of the other, or skipping its Message there would change the report.
func TestScopedRulesIgnoreOtherSessions(t *testing.T) {
	events := scopeProbeEvents(t)
	for _, rs := range engine.RuleSpecs {
		for _, rev := range []string{"2025-11-25", "2026-07-28"} {
			r := engine.NewRun("probe.jsonl", rev, engine.SourceFlag, engine.Options{})
			s := engine.NewSession("", r)
			if rs.Messages.Judges(s.Stateless()) {
				continue
			}
			rule := rs.New()
			for _, ev := range events {
				s.Current = ev
				for _, m := range message.ParseMessages(nil, ev) {
					s.Annotate(m)
					rule.Message(s, m)
					s.Advance(m)
				}
			}
			if !reflect.DeepEqual(rule, rs.New()) || len(r.Results) > 0 || len(r.Notes) > 0 || len(r.Facts) > 0 {
				t.Errorf("the rule of %v, scoped away from %s sessions, judged their messages", rs.Checks, rev)
			}
		}
	}
}
