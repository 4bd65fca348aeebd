package reporters

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/baseline"
	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/probe"
)

// baselineCase is a golden of a run compared with an earlier run's
// report: the current report, the probes run with it, and the delta
// baseline.Compare made from a report.json the JSON reporter wrote.
type baselineCase struct {
	rep     *judge.Report
	probes  []*probe.Report
	delta   *baseline.Delta
	formats []string
}

// baselineCases compare one corpus report with another of the same
// revision (so that clauses are new and fixed, and the wire schema is
// fixed), the synthetic probe with a baseline whose verdicts differ, and a
// baseline of another mcpverdict version, which is not compared.
func baselineCases(t *testing.T) map[string]baselineCase {
	now := corpusReport(t, "violations/trans-http26-invalid-annotations")
	then := corpusReport(t, "violations/wire-2025-result-judged-as-2026")
	older := *then
	older.Version = "0.9.0"
	current := syntheticProbeReport()
	return map[string]baselineCase{
		"since-baseline": {rep: now, delta: compareWith(t, ForClauses(then), now, nil), formats: Names()},
		"since-baseline-probes": {rep: now, probes: []*probe.Report{current},
			delta:   compareWith(t, ForClauses(then, earlierProbe()), now, []*probe.Report{current}),
			formats: []string{"json", "markdown", "sarif", "text"}},
		"baseline-ignored": {rep: now, delta: compareWith(t, ForClauses(&older), now, nil), formats: []string{"json", "markdown", "text", "junit"}},
	}
}

// earlierProbe is the synthetic probe as an earlier run found it: the
// read-only claim held, the concurrent one was inconclusive, and the tool
// lookup was not there.
func earlierProbe() *probe.Report {
	rep := syntheticProbeReport()
	rep.Tools = rep.Tools[:2]
	rep.Tools[0].Tests = append([]probe.TestResult(nil), rep.Tools[0].Tests...)
	rep.Tools[0].Tests[0].Verdict = probe.Pass
	rep.Tools[1].Tests = append([]probe.TestResult(nil), rep.Tools[1].Tests...)
	rep.Tools[1].Tests[0].Verdict = probe.Inconclusive
	return rep
}

// compareWith writes the earlier document as report.json and compares the
// current run with it as --baseline does.
func compareWith(t *testing.T, earlier *Document, now *judge.Report, probes []*probe.Report) *baseline.Delta {
	t.Helper()
	var buf bytes.Buffer
	if err := (JSON{}).Write(&buf, earlier, Options{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	base, err := baseline.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return baseline.Compare("base/report.json", base, baseline.Current{Report: now, Probes: probes})
}

func TestBaselineGoldens(t *testing.T) {
	for name, c := range baselineCases(t) {
		for _, format := range c.formats {
			t.Run(name+"/"+format, func(t *testing.T) {
				r, _ := Get(format)
				doc := ForClauses(c.rep, c.probes...)
				doc.Baseline, doc.ReadTrace = c.delta, readFromModule
				var buf bytes.Buffer
				if err := r.Write(&buf, doc, goldenOptions()); err != nil {
					t.Fatal(err)
				}
				got := buf.Bytes()
				if format == "html" {
					got = withoutAssets(got)
				}
				path := filepath.Join("testdata", name+"."+goldenExt[format])
				checkGolden(t, path, got)
				if format == "junit" && len(c.probes) == 0 {
					if got, want := peers.JUnitCounts(t, path), expectedJUnitCounts(c.rep); got != want {
						t.Errorf("%s: test-results-parser read %+v, want %+v", path, got, want)
					}
				}
			})
		}
	}
}

// The delta of the corpus pair is what the two reports say: the
// annotation clauses fail now and did not then, the cache clause and the
// wire schema failed then and do not now.
func TestBaselineDeltaOfTwoCorpusReports(t *testing.T) {
	d := baselineCases(t)["since-baseline"].delta
	if !d.Compared() || len(d.New) != 13 || d.NewFailures() != 13 {
		t.Fatalf("new %d (failures %d), ignored %q; want 13 new MUST failures", len(d.New), d.NewFailures(), d.Ignored)
	}
	var fixed []string
	for _, c := range d.Fixed {
		fixed = append(fixed, c.Clause+":"+c.Then+"->"+c.Now)
	}
	if got := strings.Join(fixed, " "); got != "CACH-001:fail->pass wire-schema:fail->pass" {
		t.Errorf("fixed: %s", got)
	}
	ignored := baselineCases(t)["baseline-ignored"].delta
	if ignored.Compared() || !strings.Contains(ignored.Ignored, "0.9.0") || ignored.NewFailures() != 0 {
		t.Errorf("a baseline of another version was compared: %+v", ignored)
	}
}

// The probe verdicts that moved are listed, and SARIF tells a verdict that
// failed then otherwise (updated) from one that did not fail (new).
func TestBaselineProbeMoves(t *testing.T) {
	c := baselineCases(t)["since-baseline-probes"]
	var moves []string
	for _, p := range c.delta.Probes {
		moves = append(moves, p.Tool+"/"+p.Test+":"+p.Then+"->"+p.Now)
	}
	want := "echo/read_only:PASS->VIOLATION register_user/concurrent_idempotence:INCONCLUSIVE->VIOLATION lookup/open_world:absent->PASS"
	if got := strings.Join(moves, " "); got != want {
		t.Errorf("moves:\n got %s\nwant %s", got, want)
	}
	doc := ForClauses(c.rep, c.probes...)
	doc.Baseline = c.delta
	states := map[string]string{}
	for _, f := range doc.Findings(nil) {
		if f.Source == FromProbe {
			states[f.Tool+"/"+f.Verdict.Test] = baselineState(c.delta, &f)
		}
	}
	if states["echo/read_only"] != "new" || states["register_user/concurrent_idempotence"] != "updated" || states["register_user/open_world"] != "unchanged" {
		t.Errorf("baseline states: %v", states)
	}
}
