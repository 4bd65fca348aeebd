package evidence

import (
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/probe"
)

func probeReportForLedger() *probe.Report {
	tool := probe.ToolReport{
		Tool:  "get_item",
		Cases: []probe.CaseReport{{ID: "get_item", Arguments: map[string]any{"id": 1}, Errors: []probe.ErroredCall{{Session: "run1-twice", Position: 2, Kind: "tool_error"}}}},
		Tests: []probe.TestResult{
			{Test: probe.TestReadOnly, Hint: probe.ReadOnlyHint, Declared: probe.Hint{Value: probe.HintTrue}, Verdict: probe.Violation, Primary: probe.BusinessChange, Detail: "run 1: overwritten 1"},
			{Test: probe.TestOpenWorld, Hint: probe.OpenWorldHint, Declared: probe.Hint{Value: probe.HintFalse}, Verdict: probe.Pass, Primary: probe.ClaimHeld},
		},
	}
	return &probe.Report{Definition: probe.DefinitionInfo{Name: "liar", Path: "probe.toml", SHA256: "ab"}, Tools: []probe.ToolReport{tool},
		Summary: map[string]int{"VIOLATION": 1, "PASS": 1}}
}

// A probe run is a probe_report block and a probe_verdict block per (tool,
// test), in a chain ledger verify accepts.
func TestProbeVerdictsJoinTheRunLedger(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.ndjson")
	head, err := WriteRunLedger(path, "", RunEvidence{Probes: []ProbeEvidence{{Report: probeReportForLedger()}}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ledger.VerifyFile(path, head)
	if err != nil || !res.Intact() {
		t.Fatalf("%v %v", err, res.Problems)
	}
	if res.Types["probe_report"] != 1 || res.Types["probe_verdict"] != 2 {
		t.Errorf("block types %v, want one probe_report and two probe_verdict", res.Types)
	}
}

// The evidence digest moves with the evidence: another errored call, or
// the same evidence under another test, is another digest.
func TestEvidenceDigestCoversTheEvidence(t *testing.T) {
	rep := probeReportForLedger()
	tool := rep.Tools[0]
	base, err := EvidenceDigest(tool, &tool.Tests[0])
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := EvidenceDigest(tool, &tool.Tests[0]); again != base {
		t.Errorf("the digest of the same evidence changed: %s, %s", base, again)
	}
	if other, _ := EvidenceDigest(tool, &tool.Tests[1]); other == base {
		t.Error("two tests of one tool share a digest")
	}
	tool.Cases = []probe.CaseReport{{ID: "get_item", Arguments: map[string]any{"id": 1}}}
	if swapped, _ := EvidenceDigest(tool, &tool.Tests[0]); swapped == base {
		t.Error("dropping an errored call left the digest unchanged")
	}
}
