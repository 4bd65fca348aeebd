package reporters

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// syntheticReport exercises what the corpus reports do not: every outcome,
// two revisions, an incomplete trace, a trace outside the repository, notes,
// unanswered requests, and text built to break each format (control
// characters, markup, workflow-command and CDATA terminators, quotes).
func syntheticReport() *judge.Report {
	const rev = "2025-11-25"
	tricky := "bad\x00\x07 value: <b>|pipe|</b> ]]> %0A ::error::x, 100% `tick` *star* [link](x)\nnext line"
	fail := clause(rev, "TOOL-004", spec.Must, spec.Server, "Servers MUST validate all tool inputs.")
	fail2 := clause(rev, "BASE-005", spec.MustNot, spec.Client, "The request ID MUST NOT have been previously used by the requestor within the same session.")
	warn := clause(rev, "SCH-003", spec.Should, spec.Server, "The message SHOULD be limited to a concise single sentence.")
	run1 := judge.Run{
		Trace: "traces/session.jsonl", Revision: rev, RevisionSource: judge.SourceNegotiated, Transport: "stdio",
		Events: 40, Messages: 30, Sessions: 1,
		Clauses: []judge.ClauseResult{
			{Clause: fail, Outcome: judge.Fail, Examined: 3, Findings: []judge.Finding{
				finding("tools.input-validated", spec.Server, "traces/session.jsonl", 12, 7, `tool "echo" accepted arguments its inputSchema refuses: `+tricky),
				finding("tools.input-validated", spec.Server, "traces/session.jsonl", 18, 11, `tool "ghost" accepted arguments its inputSchema refuses`),
			}},
			{Clause: fail2, Outcome: judge.Fail, Examined: 4, Findings: []judge.Finding{
				finding("jsonrpc.request-id-unique", spec.Client, "traces/session.jsonl", 20, 12, `request "tools/list" reuses id 1, already used by the client in this session`),
			}},
			{Clause: warn, Outcome: judge.Warn, Examined: 2, Findings: []judge.Finding{
				finding("errors.message-sentence", spec.Server, "traces/session.jsonl", 25, 15, `error message "Oops. Try again." is two sentences`),
			}},
			{Clause: clause(rev, "LIFE-001", spec.Must, spec.Both, "The initialization phase MUST be the first interaction between client and server."), Outcome: judge.Pass, Examined: 1},
			{Clause: clause(rev, "PING-002", spec.Must, spec.Both, "The receiver MUST respond promptly with an empty response."), Outcome: judge.NotObserved, Reason: "nothing in the trace exercised it"},
			{Clause: clause(rev, "RES-003", spec.Must, spec.Server, "Servers that support resources MUST declare the resources capability."), Outcome: judge.NotApplicable, Reason: "capability server.resources was not negotiated"},
			{Clause: clause(rev, "TRAN-001", spec.Should, spec.Client, "Clients SHOULD support stdio whenever possible."), Outcome: judge.Excluded, Reason: "A property of the client, not of one session: " + tricky},
		},
		Totals:     judge.Totals{Pass: 1, Fail: 2, Warn: 1, NotObserved: 1, NotApplicable: 1, Excluded: 1},
		Unanswered: []judge.Unanswered{{Party: spec.Client, Method: "tools/call", ID: "9", Line: 39, Seq: 29}},
		Ending:     "transport-close",
		Notes:      []string{"the client proposed 2026-07-28; the server negotiated 2025-11-25"},
		Wire: judge.WireResult{Checked: true, Schema: "/schemas/2025-11-25/schema.json", Messages: 30, Valid: 29, Invalid: []judge.WireFinding{
			{Party: spec.Server, Trace: "traces/session.jsonl", Line: 14, Seq: 8, Definition: "CallToolResult", Pointer: "/result/content/0", Error: "missing property 'type'"},
		}},
	}
	run2 := judge.Run{
		Trace: "/tmp/elsewhere/broken.jsonl", Revision: "2026-07-28", RevisionSource: judge.SourceDefault,
		Events: 3, Messages: 2, Sessions: 1,
		Incomplete: "line 4: not JSON: invalid character 'x' looking for beginning of value",
		Clauses: []judge.ClauseResult{
			{Clause: clause("2026-07-28", "BASE-003", spec.Must, spec.Both, "Requests MUST include a string or integer ID."), Outcome: judge.Fail, Examined: 1, Findings: []judge.Finding{
				finding("jsonrpc.request-id-type", spec.Client, "/tmp/elsewhere/broken.jsonl", 2, 1, "request id 1.5 is neither a string nor an integer"),
			}},
		},
		Totals: judge.Totals{Fail: 1},
		Ending: "stopped",
		Wire:   judge.WireResult{NotChecked: "no schema for 2026-07-28: run `mcpverdict schema fetch`"},
	}
	return &judge.Report{
		Tool: "mcpverdict", Version: "1.2.3", Party: "server", Strict: false,
		Runs:    []judge.Run{run1, run2},
		Totals:  judge.Totals{Pass: 1, Fail: 3, Warn: 1, NotObserved: 1, NotApplicable: 1, Excluded: 1},
		Verdict: judge.VerdictIncomplete,
	}
}

func clause(rev, id string, level spec.Level, party spec.Party, quote string) *spec.Clause {
	area := id[:len(id)-4]
	return &spec.Clause{
		ID: id, Level: level, Party: party, Applies: []string{rev}, Area: area, Revision: rev, Quote: quote,
		URL:   fmt.Sprintf("https://modelcontextprotocol.io/specification/%s/basic#%s", rev, id),
		Check: "synthetic." + id,
	}
}

func finding(check string, party spec.Party, trace string, line int, seq int64, msg string) judge.Finding {
	return judge.Finding{Check: check, Party: party, Trace: trace, Line: line, Seq: seq, Message: msg}
}

// A verdict that fails on the wire schema alone says so beside the zero
// fails of its totals, in the text report and the summary's heading.
func TestVerdictSaysWhenOnlyTheWireSchemaFailed(t *testing.T) {
	rep := &judge.Report{Tool: "mcpverdict", Verdict: judge.VerdictFail, Runs: []judge.Run{{
		Trace: "t.jsonl", Revision: "2025-11-25", RevisionSource: judge.SourceNegotiated,
		Totals: judge.Totals{Pass: 3},
		Wire: judge.WireResult{Checked: true, Messages: 2, Valid: 1, Invalid: []judge.WireFinding{
			{Party: spec.Server, Trace: "t.jsonl", Line: 2, Seq: 1, Definition: "InitializeResult", Pointer: "/result", Error: "missing property 'serverInfo'"},
			{Party: spec.Server, Trace: "t.jsonl", Line: 2, Seq: 1, Definition: "InitializeResult", Pointer: "/result", Error: "missing property 'capabilities'"}}},
	}}}
	text := string(render(t, "text", rep, goldenOptions()))
	if !strings.Contains(text, "verdict: fail (no clause failed: 1 message breaks the wire schema)") ||
		!strings.Contains(text, "0 fail, 0 warn, 0 not observed, 0 not applicable, 0 excluded; 1 message breaks the wire schema") {
		t.Errorf("the text report does not say the wire schema alone failed:\n%s", text)
	}
	if md := string(render(t, "markdown", rep, goldenOptions())); !strings.Contains(md, "mcpverdict: fail (no clause failed: 1 message breaks the wire schema)") {
		t.Errorf("the summary's heading does not say the wire schema alone failed:\n%s", md)
	}
}
