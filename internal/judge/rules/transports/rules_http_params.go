package transports

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Tool parameters mirrored into Mcp-Param-{Name} headers (2026-07-28):
// what the client sends for each x-mcp-header annotation, and how the
// server treats it.
var httpParamChecks = []engine.Check{
	{ID: "http.param-header-mirrored", Summary: "a tools/call over HTTP carries Mcp-Param-{Name} with the value of every annotated argument present"},
	{ID: "http.param-header-omitted", Summary: "a tools/call over HTTP carries no Mcp-Param-{Name} for an annotated argument that is null or absent"},
	{ID: "http.param-header-encoding", Summary: "an Mcp-Param value that is not plain ASCII travels as a Base64 sentinel of it"},
	{ID: "http.param-header-not-expected", Summary: "the server does not refuse a call for leaving out the header of a null or absent argument"},
	{ID: "http.param-header-numeric-compare", Summary: "the server compares integer headers with the body by value"},
	{ID: "http.param-header-invalid-rejected", Summary: "the server refuses a call whose recognized Mcp-Param header holds invalid characters"},
	{ID: "http.x-mcp-header-safe-integer", Summary: "an annotated integer argument is within JavaScript's safe integer range"},
	{ID: "http.invalid-tool-not-called", Summary: "a client over HTTP never calls a tool whose x-mcp-header annotations are invalid"},
	{ID: "http.mismatch-relist", Summary: "after a HeaderMismatch on a tools/call the client lists the tools again before retrying"},
}

func checkParamHeaders(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg) {
	if !modernRequest(s, m) || !x.IsPost() || !x.once("param-headers") {
		return
	}
	name, tool := calledTool(s, m)
	if tool == nil {
		return
	}
	if tool.Invalid != "" {
		tool.Called = true
		s.Fail("http.invalid-tool-not-called", spec.Client, m.Event,
			"the client called %q, whose definition (line %d) it must reject: %s", name, tool.Listed.Line, tool.Invalid)
		return
	}
	for _, h := range paramMirrors(tool, x, m) {
		judgeParamHeader(s, x, h)
	}
}

func judgeParamHeader(s *engine.Session, x *httpExchange, h mirror) {
	switch {
	case h.Redacted && h.Mirrorable:
		// Sent, as it should be; whether it carries the argument is not recorded.
	case h.Mirrorable:
		s.Expect("http.param-header-mirrored", h.Matches(), spec.Client, x.Request, "%s", mirrorProblem(h))
	case h.Source == nil || string(h.Source) == "null":
		s.Expect("http.param-header-omitted", !h.Sent, spec.Client, x.Request,
			"%s is sent although the argument is null or absent", h.Label)
	}
	if h.Integer {
		s.Expect("http.x-mcp-header-safe-integer", safeInteger(h.Source), spec.Client, x.Request,
			"the argument mirrored into %s is %s, outside JavaScript's safe integer range", h.Label, h.Source)
	}
}

// endInvalidTools passes the invalid tools the client listed and never called.
func endInvalidTools(s *engine.Session, t *httpTrace) {
	engine.ToolHeadersFact.Of(s).Each(func(_ string, tool *engine.ListedTool) {
		if tool.Invalid != "" && !tool.Called {
			s.Pass("http.invalid-tool-not-called", spec.Client)
		}
	})
}

// Relisting after a HeaderMismatch: 1 waits for tools/list, 2 has relisted.
const (
	relistPending = 1
	relistDone    = 2
)

func (t *httpTrace) mismatchedTool(name string) { t.relist.Put(name, relistPending) }

func checkRelistAfterMismatch(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg) {
	if m.Kind != message.KindRequest || !s.Stateless() {
		return
	}
	if m.Method == "tools/list" {
		t.relist.Each(func(name string, state int) {
			if state == relistPending {
				t.relist.Put(name, relistDone)
			}
		})
		return
	}
	name := calledToolName(m)
	state, _ := t.relist.Get(name)
	if m.Method != "tools/call" || state == 0 {
		return
	}
	t.relist.Put(name, 0)
	s.Expect("http.mismatch-relist", state == relistDone, spec.Client, m.Event,
		"the client retried %q after a HeaderMismatch without calling tools/list first", name)
}
