package reporters

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/probe"
)

// syntheticProbeReport has every kind of verdict a reporter renders
// differently, with a tool whose declaration the test repository knows
// (echo) and two it does not.
func syntheticProbeReport() *probe.Report {
	hint := func(v probe.HintValue) probe.Hint { return probe.Hint{Value: v} }
	test := func(name string, declared probe.Hint, v probe.Outcome, r probe.Reason, detail string) probe.TestResult {
		return probe.TestResult{Test: name, Hint: probe.TestHint[name], Declared: declared, Verdict: v, Primary: r, Observed: "holds", Detail: detail}
	}
	matched, mismatched := true, false
	echo := probe.ToolReport{Tool: "echo", Contract: probe.Contract{Tool: "echo", Hints: map[string]probe.Hint{probe.ReadOnlyHint: hint(probe.HintTrue)}}, Tests: []probe.TestResult{
		test(probe.TestReadOnly, hint(probe.HintTrue), probe.Violation, probe.BusinessChange, "run 1: overwritten 1 in state.db:items"),
		test(probe.TestDestructive, hint(probe.HintAbsent), probe.NotApplicable, probe.NoDeclaration, "only additive business changes in every run"),
		test(probe.TestSequentialIdempotence, probe.Hint{Value: probe.HintMalformed, Raw: `"true"`}, probe.NotApplicable, probe.MalformedHint, "two calls left the same business state as one in every run"),
	}}
	reg := test(probe.TestConcurrentIdempotence, hint(probe.HintTrue), probe.Violation, probe.ConcurrentDiverged, "single_connection: 3/3 diverged; two_process: 3/3 diverged")
	reg.ProducedBy, reg.Secondary, reg.Expected, reg.Matched = []string{probe.ModeSingleConnection, probe.ModeTwoProcess}, []probe.Reason{probe.CallError}, "VIOLATION:CONCURRENT_DIVERGED", &matched
	seq := test(probe.TestSequentialIdempotence, hint(probe.HintFalse), probe.OverDeclared, probe.StrongerPropertyHeld, "two calls left the same business state as one in every run")
	seq.Expected, seq.Matched = "PASS", &mismatched
	register := probe.ToolReport{Tool: "register_user", Contract: probe.Contract{Tool: "register_user", Hints: map[string]probe.Hint{}}, Tests: []probe.TestResult{reg, seq,
		test(probe.TestOpenWorld, hint(probe.HintFalse), probe.Inconclusive, probe.SandboxUnavailable, "no network sandbox: it needs Linux user and network namespaces"),
	}}
	lookup := probe.ToolReport{Tool: "lookup", Contract: probe.Contract{Tool: "lookup", Hints: map[string]probe.Hint{}}, Tests: []probe.TestResult{
		test(probe.TestOpenWorld, hint(probe.HintFalse), probe.Pass, probe.ClaimHeld, "no connection attempt after the first call in any session"),
	}}
	return &probe.Report{
		Schema: probe.ReportSchemaID, Runs: 3, ConcurrentAttempts: 3,
		Definition: probe.DefinitionInfo{Name: "synthetic", Path: "testdata/probe-synthetic.toml", SHA256: "00"},
		Reset:      probe.ResetCheck{Verified: true}, Coverage: probe.Coverage{Complete: true},
		Sandbox: probe.SandboxInfo{Reason: "no network sandbox: it needs Linux user and network namespaces"},
		Tools:   []probe.ToolReport{echo, register, lookup},
	}
}

func TestProbeGoldens(t *testing.T) {
	rep := syntheticProbeReport()
	for ext, write := range map[string]func(*bytes.Buffer) error{
		"sarif":     func(b *bytes.Buffer) error { return SARIF{}.Write(b, ForProbe(rep, "1.2.3"), goldenOptions()) },
		"junit.xml": func(b *bytes.Buffer) error { return JUnit{}.Write(b, ForProbe(rep, "1.2.3"), goldenOptions()) },
	} {
		var got bytes.Buffer
		if err := write(&got); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "probe-synthetic."+ext)
		if *update {
			if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./reporters -update)", err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s differs from its golden; run go test ./reporters -run TestProbeGoldens -update and review the diff", path)
		}
	}
}

// A real JUnit consumer reads the probe's JUnit golden with the counts its
// verdicts imply: two violations and an expectation mismatch fail, the
// inconclusive and not-applicable verdicts are skipped.
func TestProbeJUnitGoldenParses(t *testing.T) {
	got := peers.JUnitCounts(t, filepath.Join("testdata", "probe-synthetic.junit.xml"))
	want := peers.JUnit{Total: 4, Passed: 1, Failed: 3, Skipped: 3}
	if got != want {
		t.Errorf("test-results-parser read %+v, want %+v", got, want)
	}
}
