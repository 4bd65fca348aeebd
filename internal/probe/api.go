package probe

import (
	"fmt"
	"os"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
)

// Failed reports whether the run found what a gate should stop on: a
// violation, an unverified reset, or (for a fixture) a verdict other than
// the recorded truth. Inconclusive and over-declared verdicts do not fail.
func (r *Report) Failed() bool {
	if r.Summary[string(definition.Violation)] > 0 || r.Summary[string(definition.ResetUnverified)] > 0 {
		return true
	}
	return r.Expectations != nil && r.Expectations.Matched != r.Expectations.Checked
}

// VerdictRecord is one (tool, test) verdict as flat data, for the ledger
// and for reporters that need no evidence.
type VerdictRecord struct {
	Definition       string              `json:"definition"`
	DefinitionSHA256 string              `json:"definition_sha256"`
	Tool             string              `json:"tool"`
	Test             string              `json:"test"`
	Hint             string              `json:"hint"`
	Declared         string              `json:"declared"`
	Verdict          definition.Outcome  `json:"verdict"`
	Primary          definition.Reason   `json:"primary_reason"`
	Secondary        []definition.Reason `json:"secondary_reasons,omitempty"`
	Detail           string              `json:"detail"`
}

// Verdicts lists every (tool, test) verdict of the report in order.
func (r *Report) Verdicts() []VerdictRecord {
	var out []VerdictRecord
	for _, t := range r.Tools {
		for _, tr := range t.Tests {
			out = append(out, VerdictRecord{
				Definition: r.Definition.Name, DefinitionSHA256: r.Definition.SHA256,
				Tool: t.Tool, Test: tr.Test, Hint: tr.Hint, Declared: declaredText(tr.Declared),
				Verdict: tr.Verdict, Primary: tr.Primary, Secondary: tr.Secondary, Detail: tr.Detail,
			})
		}
	}
	return out
}

// RuleID names a test as a reporter rule: "probe/read_only" and so on, one
// rule per hint test.
func RuleID(test string) string { return "probe/" + test }

// TestDescriptions say what each test checks, for reporters' rule texts.
var TestDescriptions = map[string]string{
	definition.TestReadOnly:              "readOnlyHint: true holds when no call changes business or unclassified state (append-only records may be added).",
	definition.TestDestructive:           "destructiveHint: false holds when no call removes or overwrites an existing business record.",
	definition.TestSequentialIdempotence: "idempotentHint: true holds when two identical calls leave the same business state as one, in every run.",
	definition.TestConcurrentIdempotence: "idempotentHint: true holds under concurrency when two identical calls in flight at once (on one connection, and through two server processes sharing the store) converge on a single call's business state.",
	definition.TestOpenWorld:             "openWorldHint: false holds when no call makes a connection attempt (DNS lookup, TCP connect, UDP datagram) in a network sandbox that records them all.",
}

// VerifyReset seeds the definition's state twice into fresh directories
// and compares the normalized snapshots.
func VerifyReset(def *definition.Definition) (ResetCheck, error) {
	scratch, err := os.MkdirTemp("", "mcpverdict-probe-reset-")
	if err != nil {
		return ResetCheck{}, fmt.Errorf("cannot make a scratch directory: %w", err)
	}
	defer os.RemoveAll(scratch)
	r := &runner{def: def, scratch: scratch}
	check, _ := r.verifyReset()
	return check, nil
}
