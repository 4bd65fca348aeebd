package reporters

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// Every golden SARIF file passes Microsoft's SARIF Multitool with the
// SARIF rules and GitHub's ingestion rules: no error, no warning.
func TestSARIFGoldensPassSarifMultitool(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.sarif"))
	if len(paths) == 0 {
		t.Fatal("no SARIF goldens")
	}
	if problems := peers.SarifProblems(t, paths...); len(problems) > 0 {
		t.Errorf("sarif-multitool validate:\n%s", strings.Join(problems, "\n"))
	}
}

// A real JUnit consumer (test-results-parser, as used by CI reporting
// tools) reads every golden JUnit file with the counts the report implies.
func TestJUnitGoldensParseWithTheRightCounts(t *testing.T) {
	for name, rep := range goldenReports(t) {
		path := filepath.Join("testdata", name+".junit.xml")
		got := peers.JUnitCounts(t, path)
		if want := expectedJUnitCounts(rep); got != want {
			t.Errorf("%s: test-results-parser read %+v, want %+v", path, got, want)
		}
	}
}

// expectedJUnitCounts counts from the report what the JUnit file must
// hold, in test-results-parser's terms: total leaves out skipped cases and
// failed counts failures (errors apart).
func expectedJUnitCounts(rep *judge.Report) peers.JUnit {
	var tests, failed, errors, skipped int
	for _, r := range rep.Runs {
		t := r.Totals
		tests += len(r.Clauses) + 1
		failed += t.Fail
		if rep.Strict {
			failed += t.Warn
		}
		skipped += t.NotObserved + t.NotApplicable + t.Excluded
		// An extension not asked for has a suite of its own, whose fail
		// and warn rows are output, not failures.
		for _, e := range r.Extensions {
			if !e.Counted {
				skipped += e.Totals.NotObserved + e.Totals.NotApplicable + e.Totals.Excluded
			}
		}
		switch {
		case !r.Wire.Checked:
			skipped++
		case len(r.Wire.Invalid) > 0:
			failed++
		}
		if r.Incomplete != "" {
			tests++
			errors++
		}
	}
	total := tests - skipped
	return peers.JUnit{Total: total, Passed: total - failed - errors, Failed: failed, Errors: errors, Skipped: skipped}
}

func goldenReports(t *testing.T) map[string]*judge.Report {
	out := map[string]*judge.Report{"synthetic": syntheticReport()}
	for _, c := range corpusCases {
		out[filepath.Base(c)] = corpusReport(t, c)
	}
	return out
}
