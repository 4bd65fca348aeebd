package evidence

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/canon"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/provenance"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// RunEvidence is what one run of check (or the action) puts in its ledger.
type RunEvidence struct {
	// Provenance opens the ledger: version, command, start time, CI run.
	Provenance ledger.Provenance
	// Traces are the trace files the run recorded or read; each is digested
	// and the tools it lists recorded as declarations.
	Traces []string
	// TraceNames names a trace that was read from a copy (a pipe's, say):
	// the copy's path, the name the run was given, which the ledger
	// records.
	TraceNames map[string]string
	// Report is the clause report; its wire-schema results get a block of
	// their own. Nil when the run judged nothing.
	Report *judge.Report
	// Drift is the contract comparison with a lockfile, nil without one.
	Drift *Drift
	// Probes are the tool-annotation probes the run made (check --probe).
	Probes []ProbeEvidence
}

// Drift is the outcome of comparing a run's tools with a contract lockfile.
type Drift struct {
	// Lockfile is the lockfile's path as given.
	Lockfile string `json:"lockfile"`
	// Recipe is the lockfile's recipe.
	Recipe   Recipe    `json:"contract_recipe"`
	Findings []Finding `json:"findings"`
}

// WriteRunLedger writes a run's ledger to path (and its head to headPath,
// when set), whole or not at all, and returns the head. Blocks: provenance,
// then per trace "trace" (path, SHA-256, size) and "declarations" (the tools
// it lists), "clause_report", "wire_schema", "contract_findings", and per
// probe "probe_report" and a "probe_verdict" per (tool, test).
func WriteRunLedger(path, headPath string, ev RunEvidence) (string, error) {
	led, err := ledger.Create(path, ev.Provenance)
	if err != nil {
		return "", err
	}
	defer led.Abort()
	for _, t := range ev.Traces {
		if err := appendTrace(led, t, nameOr(ev.TraceNames, t)); err != nil {
			return "", err
		}
	}
	if ev.Report != nil {
		if err := appendReport(led, ev.Report); err != nil {
			return "", err
		}
	}
	if ev.Drift != nil {
		if _, err := led.Append("contract_findings", ev.Drift); err != nil {
			return "", err
		}
	}
	for _, pe := range ev.Probes {
		if err := appendProbe(led, pe); err != nil {
			return "", err
		}
	}
	return led.Commit(headPath)
}

func nameOr(names map[string]string, path string) string {
	if n, ok := names[path]; ok {
		return n
	}
	return path
}

func appendTrace(led *ledger.File, path, name string) error {
	sum, size, err := digestFile(path)
	if err != nil {
		return err
	}
	if _, err := led.Append("trace", map[string]any{"path": name, "sha256": sum, "bytes": size}); err != nil {
		return err
	}
	events, err := trace.ReadFile(path)
	if err != nil && len(events) == 0 {
		return nil // a trace that cannot be read has no declarations to record; the report says why
	}
	if self := ServerSelf(events); self != nil {
		if _, err := led.Append("server", serverBlock(name, self)); err != nil {
			return err
		}
	}
	tools := ServedTools(events)
	if len(tools) == 0 {
		return nil
	}
	_, err = led.AppendValue("declarations", object("trace", canon.StringValue(name), "tools", canon.Value{Kind: canon.Array, Items: tools}))
	return err
}

func digestFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, fmt.Errorf("cannot digest the trace: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("cannot digest the trace %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// clauseRow is one clause's outcome as the ledger keeps it: the clause's
// text is the registry's, fixed by the version in the provenance block.
type clauseRow struct {
	ID       string          `json:"id"`
	Outcome  judge.Outcome   `json:"outcome"`
	Reason   string          `json:"reason,omitempty"`
	Examined int             `json:"examined"`
	Findings []judge.Finding `json:"findings,omitempty"`
}

type runRow struct {
	Trace          string       `json:"trace"`
	Revision       string       `json:"revision"`
	RevisionSource string       `json:"revision_source"`
	Incomplete     string       `json:"incomplete,omitempty"`
	Totals         judge.Totals `json:"totals"`
	Clauses        []clauseRow  `json:"clauses"`
}

func appendReport(led *ledger.File, rep *judge.Report) error {
	runs := make([]runRow, 0, len(rep.Runs))
	wire := make([]map[string]any, 0, len(rep.Runs))
	for _, run := range rep.Runs {
		row := runRow{Trace: run.Trace, Revision: run.Revision, RevisionSource: run.RevisionSource, Incomplete: run.Incomplete, Totals: run.Totals}
		for _, c := range run.Clauses {
			row.Clauses = append(row.Clauses, clauseRow{ID: c.Clause.ID, Outcome: c.Outcome, Reason: c.Reason, Examined: c.Examined, Findings: c.Findings})
		}
		runs = append(runs, row)
		wire = append(wire, map[string]any{"trace": run.Trace, "revision": run.Revision, "wire_schema": run.Wire})
	}
	if _, err := led.Append("clause_report", map[string]any{
		"version": rep.Version, "party": rep.Party, "strict": rep.Strict,
		"verdict": rep.Verdict, "totals": rep.Totals, "runs": runs,
	}); err != nil {
		return err
	}
	_, err := led.Append("wire_schema", map[string]any{"runs": wire})
	return err
}

// serverBlock is how the server described itself in a trace. What it said
// is kept as JSON when canonical JSON can hold it; a result with a lone
// surrogate or a byte that is not UTF-8 (which canonical JSON refuses,
// having no UTF-8 form to hash) is kept as its text, or as Base64 when
// that text is not UTF-8 either.
func serverBlock(trace string, said json.RawMessage) map[string]any {
	block := map[string]any{"trace": trace, "identity": provenance.IdentifyServer(said)}
	switch _, err := canon.Decode(said); {
	case err == nil:
		block["said"] = said
	case utf8.Valid(said):
		block["said_text"] = string(said)
	default:
		block["said_base64"] = base64.StdEncoding.EncodeToString(said)
	}
	return block
}
