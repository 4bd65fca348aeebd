package calibrate

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// The two ways the verdicts can disagree.
const (
	// WeFail: mcpverdict fails a clause against the server in a scenario
	// the suite passed.
	WeFail = "we-fail"
	// SuiteFail: the suite failed a scenario in which mcpverdict failed no
	// clause against the server. A warning does not count: a SHOULD the
	// server misses in every scenario would otherwise hide every failure.
	SuiteFail = "suite-fail"
)

// Disagreement is one place where the suite and mcpverdict differ.
type Disagreement struct {
	Kind     string `json:"kind"`
	Server   string `json:"server"`
	Run      string `json:"run"`
	Scenario string `json:"scenario"`
	// Clause is the clause mcpverdict failed (WeFail).
	Clause string `json:"clause,omitempty"`
	// Detail is mcpverdict's first finding, or the suite's failed checks.
	Detail string `json:"detail"`
	// Trace is the scenario's trace.
	Trace string `json:"trace"`
}

// judged is what mcpverdict made of one scenario's trace.
type judged struct {
	// Clauses is how many clauses the trace judged (pass, fail or warn).
	Clauses int
	// Fails maps each clause failed against the server to its first finding.
	Fails map[string]string
	// Flagged counts the clauses failed or warned against the server.
	Flagged int
}

func judgeTrace(path string) (judged, error) {
	out := judged{Fails: map[string]string{}}
	if path == "" {
		return out, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return out, err
	}
	defer f.Close()
	r := trace.NewReader(f, path)
	report := judge.Judge([]judge.Input{{Name: path, Next: r.Next}}, judge.Options{})
	for _, run := range report.Runs {
		if run.Incomplete == judge.NoMessages {
			continue // a scenario that sent nothing judged nothing
		}
		if run.Incomplete != "" {
			return out, fmt.Errorf("%s: %s", path, run.Incomplete)
		}
		out.Clauses += run.Totals.Pass + run.Totals.Fail + run.Totals.Warn
		for _, c := range run.Clauses {
			out.add(c)
		}
	}
	return out, nil
}

func (j *judged) add(c judge.ClauseResult) {
	if c.Outcome != judge.Fail && c.Outcome != judge.Warn {
		return
	}
	for _, f := range c.Findings {
		if f.Party != spec.Server {
			continue
		}
		j.Flagged++
		if c.Outcome == judge.Fail {
			if _, seen := j.Fails[c.Clause.ID]; !seen {
				j.Fails[c.Clause.ID] = f.Message
			}
		}
		return
	}
}

// Outcome is one scenario compared: the suite's verdict and mcpverdict's.
type Outcome struct {
	Server      string `json:"server"`
	Run         string `json:"run"`
	Scenario    string `json:"scenario"`
	SuiteFailed bool   `json:"suite_failed"`
	// Inconclusive: the suite failed the scenario only because its own
	// client timed out, which says nothing a trace could be compared with.
	Inconclusive bool `json:"inconclusive,omitempty"`
	Clauses      int  `json:"clauses_judged"`
	Flagged      int  `json:"clauses_flagged"`
	Fails        int  `json:"clauses_failed"`
}

// compare judges each scenario and lists where the verdicts disagree.
func compare(server string, run suiteRun, scenarios []scenario) ([]Outcome, []Disagreement, error) {
	var outcomes []Outcome
	var diffs []Disagreement
	for _, sc := range scenarios {
		if sc.Unreadable {
			// One scenario the suite did not finish says nothing either way;
			// the ledger's entries for it are not judged stale on this run.
			outcomes = append(outcomes, Outcome{Server: server, Run: run.Name, Scenario: sc.Name, Inconclusive: true})
			continue
		}
		j, err := judgeTrace(sc.Trace)
		if err != nil {
			return nil, nil, err
		}
		failed := sc.failed()
		o := Outcome{
			Server: server, Run: run.Name, Scenario: sc.Name, SuiteFailed: len(failed) > 0,
			Inconclusive: len(failed) > 0 && onlyTimeouts(failed), Clauses: j.Clauses, Flagged: j.Flagged, Fails: len(j.Fails),
		}
		outcomes = append(outcomes, o)
		if !o.Inconclusive {
			diffs = append(diffs, disagreements(server, run, sc, failed, j)...)
		}
	}
	return outcomes, diffs, nil
}

func disagreements(server string, run suiteRun, sc scenario, failed []suiteCheck, j judged) []Disagreement {
	base := Disagreement{Server: server, Run: run.Name, Scenario: sc.Name, Trace: sc.Trace}
	if len(failed) > 0 {
		if len(j.Fails) > 0 {
			return nil
		}
		d := base
		d.Kind, d.Detail = SuiteFail, describeChecks(failed)
		return []Disagreement{d}
	}
	var out []Disagreement
	for _, clause := range sortedKeys(j.Fails) {
		d := base
		d.Kind, d.Clause, d.Detail = WeFail, clause, j.Fails[clause]
		out = append(out, d)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// onlyTimeouts reports failed checks that all say the suite's client gave
// up waiting (its scenario timeout or its SDK's request timeout): on a
// loaded machine that happens to servers that answer, and a trace cut short
// has nothing to compare.
func onlyTimeouts(failed []suiteCheck) bool {
	for _, c := range failed {
		if c.ID != "scenario-timeout" && !strings.Contains(c.ErrorMessage, "Request timed out") {
			return false
		}
	}
	return true
}
