package evidence

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// ContractDocs is where the contract checks are documented.
const ContractDocs = "https://github.com/mcpverdict/mcpverdict#tool-contracts-contract-lock-and-check---contract"

// driftClauses are the contract checks as clauses of a report, one rule each
// in SARIF, a testcase each in JUnit.
var driftClauses = []struct {
	id    string
	check Check
}{{"CONTRACT-001", ContractMutated}, {"CONTRACT-002", ToolAdded}, {"CONTRACT-003", ToolRemoved}}

// AddContractRun folds a drift into a clause report, so that every reporter
// shows it: one run for the lockfile whose clauses are the contract checks,
// each failing with its findings or passing. Each finding's message names
// its tool (`tool "NAME"`), which is what places it at the tool's declaration
// in the repository. The run takes the revision of the report's first run; a
// nil drift, or a report with no run, is left alone.
func AddContractRun(rep *judge.Report, d *Drift) {
	if d == nil || rep == nil || len(rep.Runs) == 0 {
		return
	}
	first := rep.Runs[0]
	run := judge.Run{
		Trace: d.Lockfile, Revision: first.Revision, RevisionSource: first.RevisionSource,
		Wire: judge.WireResult{NotApplicable: "a contract lockfile holds no messages"},
	}
	lines := lockLines(d.Lockfile)
	for _, dc := range driftClauses {
		res := contractClause(dc.id, dc.check, first.Revision, d, lines)
		run.Totals = addOutcome(run.Totals, res.Outcome)
		run.Clauses = append(run.Clauses, res)
	}
	rep.Runs = append(rep.Runs, run)
	rep.Totals.Pass += run.Totals.Pass
	rep.Totals.Fail += run.Totals.Fail
	if run.Totals.Fail > 0 && rep.Verdict != judge.VerdictIncomplete {
		rep.Verdict = judge.VerdictFail
	}
}

func contractClause(id string, c Check, revision string, d *Drift, lines map[string]int) judge.ClauseResult {
	info := c.Info()
	clause := &spec.Clause{
		ID: id, Level: spec.Must, Party: spec.Server, Applies: []string{revision},
		URL: ContractDocs, Quote: info.Title + ": " + info.Help, Check: string(c),
		Area: "CONTRACT", Revision: revision,
	}
	res := judge.ClauseResult{Clause: clause, Outcome: judge.Pass, Reason: fmt.Sprintf("every tool agrees with %s", d.Lockfile)}
	for _, f := range d.Findings {
		res.Examined++
		if f.Check != c {
			continue
		}
		res.Findings = append(res.Findings, judge.Finding{
			Check: string(c), Party: spec.Server, Trace: d.Lockfile, Line: lines[f.Tool], Message: FindingMessage(f),
		})
	}
	if len(res.Findings) > 0 {
		res.Outcome, res.Reason = judge.Fail, fmt.Sprintf("%d tools differ from %s", len(res.Findings), d.Lockfile)
	}
	return res
}

// FindingMessage is a finding in one line: its detail, then each changed
// field's old and new value.
func FindingMessage(f Finding) string {
	var b strings.Builder
	b.WriteString(f.Detail)
	for _, ch := range f.Changes {
		fmt.Fprintf(&b, "; %s: %s -> %s", ch.Field, orAbsent(ch.Old), orAbsent(ch.New))
	}
	return b.String()
}

func orAbsent(b []byte) string {
	if b == nil {
		return "(absent)"
	}
	return string(b)
}

func addOutcome(t judge.Totals, o judge.Outcome) judge.Totals {
	if o == judge.Fail {
		t.Fail++
	} else {
		t.Pass++
	}
	return t
}

// lockLines finds the line of the lockfile that names each tool, so a
// finding not placed at a declaration is at least placed in the lockfile.
func lockLines(path string) map[string]int {
	out := map[string]int{}
	data, err := os.ReadFile(path)
	if err != nil {
		return out
	}
	for i, line := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if name, ok := bytes.CutPrefix(t, []byte(`"name": "`)); ok {
			tool := string(bytes.TrimSuffix(bytes.TrimSuffix(name, []byte(",")), []byte(`"`)))
			if _, seen := out[tool]; !seen {
				out[tool] = i + 1
			}
		}
	}
	return out
}
