package reporters

import (
	"encoding/json"
	"os/exec"
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
	node := peers.Require(t)
	for name, rep := range goldenReports(t) {
		path := filepath.Join("testdata", name+".junit.xml")
		got := parseJUnitWithNode(t, node, path)
		if want := expectedJUnitCounts(rep); got != want {
			t.Errorf("%s: test-results-parser read %+v, want %+v", path, got, want)
		}
	}
}

type junitCounts struct {
	Total, Passed, Failed, Errors, Skipped int
}

const parseJUnitScript = `
const {parse} = require(process.argv[1]);
const r = parse({type: "junit", files: [process.argv[2]]});
console.log(JSON.stringify({Total: r.total, Passed: r.passed, Failed: r.failed, Errors: r.errors, Skipped: r.skipped}));
`

func parseJUnitWithNode(t *testing.T, node, path string) junitCounts {
	t.Helper()
	abs, _ := filepath.Abs(path)
	out, err := exec.Command(node, "-e", parseJUnitScript, peers.Module("test-results-parser", ""), abs).Output()
	if err != nil {
		t.Fatalf("test-results-parser on %s: %v", path, err)
	}
	var c junitCounts
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatalf("%s: %s", err, out)
	}
	return c
}

// expectedJUnitCounts counts from the report what the JUnit file must
// hold, in test-results-parser's terms: total leaves out skipped cases and
// failed counts failures (errors apart).
func expectedJUnitCounts(rep *judge.Report) junitCounts {
	var tests, failed, errors, skipped int
	for _, r := range rep.Runs {
		t := r.Totals
		tests += len(r.Clauses) + 1
		failed += t.Fail
		if rep.Strict {
			failed += t.Warn
		}
		skipped += t.NotObserved + t.NotApplicable + t.Excluded
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
	return junitCounts{Total: total, Passed: total - failed - errors, Failed: failed, Errors: errors, Skipped: skipped}
}

func goldenReports(t *testing.T) map[string]*judge.Report {
	out := map[string]*judge.Report{"synthetic": syntheticReport()}
	for _, c := range corpusCases {
		out[filepath.Base(c)] = corpusReport(t, c)
	}
	return out
}
