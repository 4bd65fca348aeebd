package reporters

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpverdict/mcpverdict/internal/baseline"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Document is what one invocation found, as every reporter renders it: the
// clause report (contract drift folded in as runs of its own, see
// evidence.AddContractRun) and the probe reports run beside it. A probe run
// on its own is a Document without clauses.
type Document struct {
	Clauses *judge.Report
	Probes  []*probe.Report
	// Version is mcpverdict's version, for a Document without clauses
	// (a clause report carries its own).
	Version string
	// Ledger is the run's evidence ledger, when one was written before the
	// report (the html format shows its head).
	Ledger *Ledger
	// Drift is the contract drift the run found, when it compared the
	// tools with a lockfile: the html format lays out its field changes.
	Drift []ToolDrift
	// Baseline is what changed since an earlier run's report (--baseline),
	// or why it could not be compared; nil when none was given.
	Baseline *baseline.Delta
	// Jobs are the jobs a merged report folds (mcpverdict merge), a row
	// each; nil for one job's report.
	Jobs []JobRow
	// ReadTrace reads a run's trace for the formats that show its messages
	// (html); nil reads the file the run names.
	ReadTrace func(path string) ([]trace.Event, error)
}

// ToolDrift is one tool that moved from the lockfile (evidence.Finding,
// which this package cannot import: the evidence tests render reports).
type ToolDrift struct {
	Tool, Check, Detail string
	Changes             []FieldChange
}

// FieldChange is one field of a tool's contract, locked and served now;
// nil is a field absent.
type FieldChange struct {
	Field    string
	Old, New []byte
}

// Ledger is what a report says of the run's evidence ledger.
type Ledger struct {
	Head string `json:"head"`
	// Signed says a Sigstore bundle of the head lies beside it; the page
	// cannot verify it, ledger verify does.
	Signed bool   `json:"signed"`
	Bundle string `json:"bundle,omitempty"`
}

// LedgerAt is what a report says of a ledger whose head, head, was
// written to headPath: signed when ledger sign left its bundle beside it.
// An empty head is no ledger.
func LedgerAt(head, headPath string) *Ledger {
	if head == "" {
		return nil
	}
	led := &Ledger{Head: head}
	bundle := headPath + ".sigstore.json"
	if info, err := os.Stat(bundle); err == nil && info.Mode().IsRegular() {
		led.Signed, led.Bundle = true, filepath.Base(bundle)
	}
	return led
}

// ForClauses is the Document of a clause report and the probes run with it.
func ForClauses(rep *judge.Report, probes ...*probe.Report) *Document {
	return &Document{Clauses: rep, Probes: probes, Version: rep.Version}
}

// ForProbe is the Document of a probe run on its own.
func ForProbe(rep *probe.Report, version string) *Document {
	return &Document{Probes: []*probe.Report{rep}, Version: version}
}

// errNoClauses refuses a Document without a clause report in a format
// that lays one out.
func errNoClauses(format string) error {
	return fmt.Errorf("the %s format renders a clause report; a probe run on its own is written as %s", format, "probe-report.json and probe-report.txt, or sarif and junit")
}

// probeOnly says the Document holds one probe run and no clause report,
// which the formats with a layout of their own for it (sarif, junit) ask.
func (d *Document) probeOnly() bool { return d.Clauses == nil && len(d.Probes) == 1 }

// Source says which part of mcpverdict found a finding.
type Source string

// The sources of findings.
const (
	FromClause   Source = "clause"      // a clause check of the judge
	FromContract Source = "contract"    // drift from a contract lockfile
	FromWire     Source = "wire-schema" // a message the revision's JSON Schema refuses
	FromTrace    Source = "trace"       // a trace that could not be read whole
	FromProbe    Source = "probe"       // a tool's hint that its behaviour contradicts
)

// Finding is one thing found wrong, whatever found it: the formats that
// list findings one by one (github, sarif) walk Document.Findings.
type Finding struct {
	Source Source
	// Rule is the clause id, the wire-schema rule or the probe rule.
	Rule string
	// Level is "error", "warning" or "note".
	Level string
	Party spec.Party
	// Place is where a reviewer sees the finding, when the format points
	// into files.
	Place Place
	// The evidence, by source: the clause and its finding; the refused
	// message; the incomplete run; the probe verdict.
	Clause  *judge.ClauseResult
	Judged  *judge.Finding
	Wire    *judge.WireFinding
	Run     *judge.Run
	Probe   *probe.Report
	Tool    string
	Verdict *probe.TestResult
}

// Findings lists every finding of the Document in report order: for each
// run, its incompleteness, its failed and warned clauses' findings and the
// messages the wire schema refused; then each probe's verdicts that need
// attention. The strings are the visible ones (visibleReport).
func (d *Document) Findings(repo *Repository) []Finding {
	var out []Finding
	if d.Clauses != nil {
		rep := visibleReport(d.Clauses)
		for i := range rep.Runs {
			out = appendRunFindings(out, &rep.Runs[i], repo)
		}
	}
	for _, p := range d.Probes {
		out = appendProbeFindings(out, p, repo)
	}
	return out
}

func appendRunFindings(out []Finding, r *judge.Run, repo *Repository) []Finding {
	if r.Incomplete != "" {
		out = append(out, Finding{Source: FromTrace, Rule: "trace", Level: "error", Run: r, Place: repo.PlaceTrace(r.Trace, r.IncompleteLine)})
	}
	for i := range r.Clauses {
		c := &r.Clauses[i]
		if c.Outcome != judge.Fail && c.Outcome != judge.Warn {
			continue
		}
		source, level := FromClause, sarifLevel(c.Clause.Level)
		if c.Clause.Area == "CONTRACT" {
			source = FromContract
		}
		for j := range c.Findings {
			f := &c.Findings[j]
			out = append(out, Finding{Source: source, Rule: ClauseRuleID(c.Clause), Level: level, Party: f.Party,
				Clause: c, Judged: f, Run: r, Place: repo.PlaceFinding(f)})
		}
	}
	for i := range r.Wire.Invalid {
		f := &r.Wire.Invalid[i]
		out = append(out, Finding{Source: FromWire, Rule: WireRuleID(r.Revision), Level: "error", Party: f.Party,
			Wire: f, Run: r, Place: repo.PlaceTrace(f.Trace, f.Line)})
	}
	return out
}

func appendProbeFindings(out []Finding, rep *probe.Report, repo *Repository) []Finding {
	lines := definitionLines(rep.Definition.Path)
	for _, t := range rep.Tools {
		for i := range t.Tests {
			tr := &t.Tests[i]
			level, ok := probeLevels[tr.Verdict]
			if !ok {
				continue
			}
			out = append(out, Finding{Source: FromProbe, Rule: probe.RuleID(tr.Test), Level: level, Party: spec.Server,
				Probe: rep, Tool: t.Tool, Verdict: tr, Place: repo.PlaceTool(t.Tool, rep.Definition.Path, lines[t.Tool])})
		}
	}
	return out
}
