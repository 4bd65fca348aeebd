package evidence

import (
	"encoding/json"
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/canon"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/probe"
)

// ProbeEvidence is one tool-annotation probe run (check --probe) as the
// run's ledger records it.
type ProbeEvidence struct {
	// Report is the probe's report; File is where its JSON was kept
	// (probe-report.json), digested like a trace.
	Report *probe.Report
	File   string
}

// probeVerdictRow is one (tool, test) verdict as a ledger block: what was
// claimed, what was found and why, and the digest of the evidence behind it.
type probeVerdictRow struct {
	probe.VerdictRecord
	// Evidence is "sha256:" and the SHA-256 of the canonical JSON of
	// {"cases": …, "test": …}: the tool's `cases` and this test's entry in
	// its `tests`, as probe-report.json holds them.
	Evidence string `json:"evidence_sha256"`
}

// appendProbe commits a probe run: a "probe_report" block (the definition,
// the report file's digest, the summary and the conditions of the run),
// then a "probe_verdict" block per (tool, test).
func appendProbe(led *ledger.File, pe ProbeEvidence) error {
	rep := pe.Report
	record := map[string]any{
		"definition": rep.Definition, "runs": rep.Runs, "concurrent_attempts": rep.ConcurrentAttempts,
		"reset": rep.Reset, "sandbox": rep.Sandbox, "coverage": rep.Coverage, "summary": rep.Summary,
		"failed": rep.Failed(),
	}
	if pe.File != "" {
		sum, size, err := digestFile(pe.File)
		if err != nil {
			return err
		}
		record["report"] = map[string]any{"path": pe.File, "sha256": sum, "bytes": size}
	}
	if _, err := led.Append("probe_report", record); err != nil {
		return err
	}
	records := rep.Verdicts() // in the order of the loop below: tools, then tests
	n := 0
	for _, t := range rep.Tools {
		for i := range t.Tests {
			digest, err := EvidenceDigest(t, &t.Tests[i])
			if err != nil {
				return fmt.Errorf("probe %s: %s %s: %w", rep.Definition.Name, t.Tool, t.Tests[i].Test, err)
			}
			if _, err := led.Append("probe_verdict", probeVerdictRow{VerdictRecord: records[n], Evidence: digest}); err != nil {
				return err
			}
			n++
		}
	}
	return nil
}

// EvidenceDigest is the digest a probe_verdict block gives its evidence:
// the canonical JSON of the tool's cases and the test's result.
func EvidenceDigest(t probe.ToolReport, tr *probe.TestResult) (string, error) {
	raw, err := json.Marshal(map[string]any{"cases": t.Cases, "test": tr})
	if err != nil {
		return "", err
	}
	v, err := canon.Decode(raw)
	if err != nil {
		return "", err
	}
	return canon.Fingerprint(v)
}
