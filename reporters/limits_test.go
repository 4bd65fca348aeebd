package reporters

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// manyFindings is a report with n MUST findings, m SHOULD findings and pad
// clauses not observed.
func manyFindings(n, m, pad int) *judge.Report {
	must := clause("2025-11-25", "BASE-005", spec.Must, spec.Server, "A MUST clause.")
	should := clause("2025-11-25", "SCH-003", spec.Should, spec.Server, "A SHOULD clause.")
	mk := func(k int) []judge.Finding {
		out := make([]judge.Finding, k)
		for i := range out {
			out[i] = finding("c", spec.Server, "t.jsonl", i+1, int64(i), fmt.Sprintf("finding %d of a long series %s", i, strings.Repeat("x", pad/30)))
		}
		return out
	}
	run := judge.Run{Trace: "t.jsonl", Revision: "2025-11-25", Clauses: []judge.ClauseResult{
		{Clause: must, Outcome: judge.Fail, Findings: mk(n)},
		{Clause: should, Outcome: judge.Warn, Findings: mk(m)},
	}, Wire: judge.WireResult{Checked: true}}
	for i := 0; i < pad; i++ {
		run.Clauses = append(run.Clauses, judge.ClauseResult{Clause: clause("2025-11-25", fmt.Sprintf("PAD-%03d", i%1000), spec.Must, spec.Both, strings.Repeat("q", 100)), Outcome: judge.NotObserved, Reason: strings.Repeat("r", 100)})
	}
	return &judge.Report{Tool: "mcpverdict", Version: "1.0.0", Runs: []judge.Run{run}, Verdict: judge.VerdictFail}
}

func TestMarkdownNeverExceedsTheSummaryLimit(t *testing.T) {
	rep := manyFindings(100, 100, 6000)
	out := render(t, "markdown", rep, Options{MaxFindings: 100000})
	if len(out) > MaxSummaryBytes {
		t.Fatalf("summary is %d bytes, over %d", len(out), MaxSummaryBytes)
	}
	text := string(out)
	if !strings.Contains(text, "cut short") {
		t.Error("a cut-short summary does not say so")
	}
	if strings.Count(text, "<details>") != strings.Count(text, "</details>") {
		t.Error("a <details> block is left open")
	}
	small := render(t, "markdown", rep, Options{MaxBytes: 4000})
	if len(small) > 4000 || !strings.Contains(string(small), "cut short") {
		t.Errorf("MaxBytes 4000: %d bytes", len(small))
	}
}

func TestGitHubAnnotatesTenOfEachAndSummarisesTheRest(t *testing.T) {
	out := string(render(t, "github", manyFindings(25, 12, 0), Options{}))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	count := map[string]int{}
	for _, l := range lines {
		kind, _, _ := strings.Cut(strings.TrimPrefix(l, "::"), " ")
		count[kind]++
	}
	if count["error"] != 10 || count["warning"] != 10 || count["notice"] != 1 || len(lines) != 21 {
		t.Fatalf("counts %v in:\n%s", count, out)
	}
	if !strings.Contains(lines[20], "15 more error(s) and 2 more warning(s)") {
		t.Errorf("notice: %s", lines[20])
	}
}

// A finding quoting a workflow command stays inside its own annotation, on
// one line, its line ends shown as escapes (the one rule for wire text).
func TestGitHubAnnotationsEscapeCommands(t *testing.T) {
	rep := manyFindings(1, 0, 0)
	rep.Runs[0].Clauses[0].Findings[0].Message = "x\n::add-mask::secret\r\n::error file=a,line=1::forged%0A, title: y"
	out := string(render(t, "github", rep, Options{Repo: testRepo()}))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "::error file=t.jsonl,line=1,title=") {
		t.Fatalf("got %q", out)
	}
	if !strings.Contains(lines[0], `x\n::add-mask::secret\r\n::error file=a,line=1::forged%250A, title: y`) {
		t.Errorf("message not escaped: %s", lines[0])
	}
}

func TestSARIFKeepsAtMostTheResultsGitHubKeeps(t *testing.T) {
	defer func(n int) { maxSARIFResults = n }(maxSARIFResults)
	maxSARIFResults = 40
	log := decodeSARIF(t, render(t, "sarif", manyFindings(maxSARIFResults+3, 0, 0), Options{}))
	run := log.Runs[0]
	if len(run.Results) != maxSARIFResults {
		t.Fatalf("%d results", len(run.Results))
	}
	notes := run.Invocations[0].ToolExecutionNotifications
	if len(notes) != 1 || !strings.Contains(*notes[0].Message.Text, "3 more results were left out") {
		t.Errorf("notifications: %+v", notes)
	}
}

// The same findings recorded again, at other lines and seq numbers, keep
// their fingerprints; different findings get different ones.
func TestSARIFFingerprintsAreStableAcrossRuns(t *testing.T) {
	first := syntheticReport()
	second := syntheticReport()
	for i := range second.Runs[0].Clauses {
		for j := range second.Runs[0].Clauses[i].Findings {
			f := &second.Runs[0].Clauses[i].Findings[j]
			f.Line += 40
			f.Seq += 17
			f.Message = strings.ReplaceAll(f.Message, "id 1,", "id 7,")
		}
	}
	a, b := fingerprints(t, first), fingerprints(t, second)
	if strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("fingerprints moved:\n%v\n%v", a, b)
	}
	seen := map[string]bool{}
	for _, p := range a {
		if seen[p] {
			t.Errorf("fingerprint %s given twice", p)
		}
		seen[p] = true
	}
}

func fingerprints(t *testing.T, rep *judge.Report) []string {
	var out []string
	for _, r := range decodeSARIF(t, render(t, "sarif", rep, goldenOptions())).Runs[0].Results {
		out = append(out, r.PartialFingerprints[FingerprintKey].(string))
	}
	return out
}

func decodeSARIF(t *testing.T, data []byte) *sarif.Report {
	t.Helper()
	log, err := sarif.FromBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	return log
}

// The JUnit file parses as XML whatever the findings quote, and its
// counts are the report's.
func TestJUnitAlwaysParses(t *testing.T) {
	out := render(t, "junit", syntheticReport(), Options{})
	if !bytes.HasPrefix(out, []byte(xml.Header)) {
		t.Error("no XML header")
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Skipped  int `xml:"skipped,attr"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("the JUnit file does not parse: %v", err)
	}
	// 7 + 1 clauses, a wire-schema case per run, the incomplete trace.
	if doc.Tests != 11 || doc.Failures != 4 || doc.Errors != 1 || doc.Skipped != 4 {
		t.Errorf("counts %+v", doc)
	}
}

func TestJUnitStrictFailsWarnings(t *testing.T) {
	rep := syntheticReport()
	rep.Strict = true
	var doc struct {
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(render(t, "junit", rep, Options{}), &doc); err != nil || doc.Failures != 5 {
		t.Errorf("failures %d (%v), want the warning counted too", doc.Failures, err)
	}
}

func TestJSONKeepsEveryFinding(t *testing.T) {
	rep := manyFindings(50, 0, 0)
	var back judge.Report
	if err := json.Unmarshal(render(t, "json", rep, Options{MaxFindings: 3}), &back); err != nil {
		t.Fatal(err)
	}
	if n := len(back.Runs[0].Clauses[0].Findings); n != 50 {
		t.Errorf("%d findings", n)
	}
}

func TestTextListsEveryFindingUnderAll(t *testing.T) {
	rep := manyFindings(25, 0, 0)
	if out := string(render(t, "text", rep, Options{})); !strings.Contains(out, "and 5 more") || strings.Contains(out, "finding 24 ") {
		t.Errorf("without --all the text report should show 20 findings and say 5 more:\n%s", out)
	}
	out := string(render(t, "text", rep, Options{All: true}))
	if strings.Contains(out, "more (--format json") || !strings.Contains(out, "finding 24 ") {
		t.Errorf("--all should list all 25 findings:\n%s", out)
	}
}
