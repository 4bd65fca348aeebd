package engine

import (
	"github.com/mcpverdict/mcpverdict/internal/provenance"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Outcome is what the judge concluded about one clause in one run.
type Outcome string

// The outcomes. Only pass says the clause held, and only where the session
// carried something the clause binds to.
const (
	Pass          Outcome = "pass"
	Fail          Outcome = "fail"
	Warn          Outcome = "warn"
	NotObserved   Outcome = "not-observed"
	NotApplicable Outcome = "not-applicable"
	Excluded      Outcome = "excluded"
)

// Outcomes lists every outcome in report order.
var Outcomes = []Outcome{Fail, Warn, Pass, NotObserved, NotApplicable, Excluded}

// Verdict sums up a report.
type Verdict string

// The verdicts.
const (
	VerdictPass             Verdict = "pass"
	VerdictPassWithWarnings Verdict = "pass-with-warnings"
	VerdictFail             Verdict = "fail"
	// VerdictIncomplete: a trace could not be judged whole.
	VerdictIncomplete Verdict = "incomplete"
	// VerdictNotObserved: no clause of an extension was judged, so the
	// extension has no verdict to give (never the report's own verdict,
	// which an empty trace makes incomplete).
	VerdictNotObserved Verdict = "not-observed"
)

// Finding is one thing a check found wrong, addressed to an event.
type Finding struct {
	Check   string     `json:"check"`
	Party   spec.Party `json:"party"`
	Trace   string     `json:"trace"`
	Line    int        `json:"line"`
	Seq     int64      `json:"seq"`
	Session string     `json:"session,omitempty"`
	Message string     `json:"message"`
}

// ClauseResult is one clause's outcome in one run.
type ClauseResult struct {
	Clause   *spec.Clause `json:"clause"`
	Outcome  Outcome      `json:"outcome"`
	Reason   string       `json:"reason,omitempty"`
	Examined int          `json:"examined"`
	Findings []Finding    `json:"findings,omitempty"`
	// Uncounted marks a clause of an extension that was not asked for:
	// reported beside the verdict, never in it.
	Uncounted bool `json:"uncounted,omitempty"`
}

// Totals counts clause outcomes; they add up to the registry's size.
type Totals struct {
	Pass          int `json:"pass"`
	Fail          int `json:"fail"`
	Warn          int `json:"warn"`
	NotObserved   int `json:"not_observed"`
	NotApplicable int `json:"not_applicable"`
	Excluded      int `json:"excluded"`
}

func (t *Totals) Add(o Outcome) {
	switch o {
	case Pass:
		t.Pass++
	case Fail:
		t.Fail++
	case Warn:
		t.Warn++
	case NotObserved:
		t.NotObserved++
	case NotApplicable:
		t.NotApplicable++
	case Excluded:
		t.Excluded++
	}
}

func (t *Totals) addAll(o Totals) {
	t.Pass += o.Pass
	t.Fail += o.Fail
	t.Warn += o.Warn
	t.NotObserved += o.NotObserved
	t.NotApplicable += o.NotApplicable
	t.Excluded += o.Excluded
}

// Sum is the number of clauses counted.
func (t Totals) Sum() int {
	return t.Pass + t.Fail + t.Warn + t.NotObserved + t.NotApplicable + t.Excluded
}

// Unanswered is a request a trace ended without answering: noted, never judged.
type Unanswered struct {
	Party  spec.Party `json:"party"`
	Method string     `json:"method"`
	ID     string     `json:"id"`
	Line   int        `json:"line"`
	Seq    int64      `json:"seq"`
}

// Run is the judgement of one trace under one revision.
type Run struct {
	Trace string `json:"trace"`
	// Revision and how it was chosen: negotiated, meta, header, default or flag.
	Revision       string `json:"revision"`
	RevisionSource string `json:"revision_source"`
	Transport      string `json:"transport,omitempty"`
	Events         int    `json:"events"`
	Messages       int    `json:"messages"`
	Sessions       int    `json:"sessions"`
	// Incomplete says why the trace could not be judged whole, if it could not.
	Incomplete string `json:"incomplete,omitempty"`
	// IncompleteLine is the trace line that could not be read, when one
	// could not.
	IncompleteLine int            `json:"incomplete_line,omitempty"`
	Clauses        []ClauseResult `json:"clauses"`
	Totals         Totals         `json:"totals"`
	// Extensions sums the clauses of each extension, counted in Totals
	// only when the extension was asked for.
	Extensions []ExtensionResult `json:"extensions,omitempty"`
	Unanswered []Unanswered      `json:"unanswered,omitempty"`
	// Ending says how the trace ended: transport-close, transport-abort or
	// "stopped" (no lifecycle event at the end).
	Ending string   `json:"ending,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	// Server is the server as it named itself, when the command that
	// recorded the trace says (check); the judge reads no identity.
	Server *provenance.ServerIdentity `json:"server,omitempty"`
	// Wire is the wire-schema result, beside the clause rows.
	Wire WireResult `json:"wire_schema"`
}

// Report is the judgement of every trace given.
type Report struct {
	Tool    string `json:"tool"`
	Version string `json:"version"`
	// Build and Toolchains say what ran the check (set by check).
	Build      string            `json:"build,omitempty"`
	Toolchains map[string]string `json:"toolchains,omitempty"`
	Party      string            `json:"party,omitempty"`
	Strict     bool              `json:"strict"`
	Runs       []Run             `json:"runs"`
	Totals     Totals            `json:"totals"`
	Verdict    Verdict           `json:"verdict"`
	// Extensions are the verdicts of the extensions judged beside the
	// report's own, which counts them only when asked for.
	Extensions []ExtensionVerdict `json:"extensions,omitempty"`
}

// Incomplete reports whether any trace of the report could not be judged
// whole.
func (r *Report) Incomplete() bool {
	for _, run := range r.Runs {
		if run.Incomplete != "" {
			return true
		}
	}
	return false
}
