package judge

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

var update = flag.Bool("update", false, "rewrite the golden reports under corpus/golden")

func judgeTrace(t *testing.T, ct *judgetest.CorpusTrace) *engine.Report {
	return judgeTraceWith(t, ct, engine.Options{Revisions: ct.Revisions, Party: ct.Party})
}

func judgeTraceWith(t *testing.T, ct *judgetest.CorpusTrace, opts engine.Options) *engine.Report {
	f, err := os.Open(ct.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rel, _ := filepath.Rel(filepath.Join(judgetest.CorpusRoot(t), ".."), ct.Path)
	r := trace.NewReader(f, filepath.ToSlash(rel))
	return engine.Judge([]engine.Input{{Name: filepath.ToSlash(rel), Next: r.Next}}, opts)
}

// found lists "REV CLAUSE outcome" for every fail and warn in a report.
func found(rep *engine.Report, wildcard bool) map[string]bool {
	out := map[string]bool{}
	for _, run := range rep.Runs {
		for _, c := range run.Clauses {
			if c.Outcome == engine.Fail || c.Outcome == engine.Warn {
				rev := run.Revision
				if wildcard {
					rev = "*"
				}
				out[rev+" "+c.Clause.ID+" "+string(c.Outcome)] = true
			}
		}
	}
	return out
}

// Each corpus trace yields exactly the findings its header expects.
func TestCorpusExpectations(t *testing.T) {
	for _, ct := range judgetest.LoadCorpus(t) {
		t.Run(ct.Dir+"/"+ct.Name, func(t *testing.T) {
			rep := judgeTrace(t, ct)
			for _, run := range rep.Runs {
				if run.Incomplete != "" {
					t.Fatalf("incomplete: %s", run.Incomplete)
				}
			}
			got := found(rep, len(ct.Revisions) != 1 && !anyPrefixed(ct.Expect))
			if diff := setDiff(ct.Expect, got); diff != "" {
				t.Errorf("%s\nfindings:\n%s", diff, findingLines(rep))
			}
			checkGolden(t, ct, rep)
		})
	}
}

func anyPrefixed(expect map[string]bool) bool {
	for k := range expect {
		if !strings.HasPrefix(k, "* ") {
			return true
		}
	}
	return false
}

func setDiff(want, got map[string]bool) string {
	var b strings.Builder
	for _, k := range sortedKeys(want) {
		if !got[k] {
			fmt.Fprintf(&b, "expected but not found: %s\n", k)
		}
	}
	for _, k := range sortedKeys(got) {
		if !want[k] {
			fmt.Fprintf(&b, "found but not expected: %s\n", k)
		}
	}
	return b.String()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func findingLines(rep *engine.Report) string {
	var b strings.Builder
	for _, run := range rep.Runs {
		for _, c := range run.Clauses {
			for _, f := range c.Findings {
				fmt.Fprintf(&b, "  %s %s %s line %d: %s\n", run.Revision, c.Clause.ID, c.Outcome, f.Line, f.Message)
			}
		}
	}
	return b.String()
}

// golden is the compact, reviewable form of a report kept under corpus/golden.
type golden struct {
	Verdict engine.Verdict `json:"verdict"`
	Runs    []goldenRun    `json:"runs"`
}

// It lists the clauses that passed and the findings, not the not-observed
// and excluded rows, so that registering a clause changes only the golden
// reports of the traces it judges.
type goldenRun struct {
	Revision   string   `json:"revision"`
	Source     string   `json:"revision_source"`
	Passed     []string `json:"passed"`
	Findings   []string `json:"findings,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	Unanswered int      `json:"unanswered,omitempty"`
}

func toGolden(rep *engine.Report) golden {
	g := golden{Verdict: rep.Verdict}
	for _, run := range rep.Runs {
		gr := goldenRun{Revision: run.Revision, Source: run.RevisionSource, Notes: run.Notes, Unanswered: len(run.Unanswered)}
		for _, c := range run.Clauses {
			if c.Outcome == engine.Pass {
				gr.Passed = append(gr.Passed, c.Clause.ID)
			}
			for _, f := range c.Findings {
				gr.Findings = append(gr.Findings, fmt.Sprintf("%s %s [%s] line %d: %s", c.Clause.ID, c.Outcome, f.Party, f.Line, f.Message))
			}
		}
		g.Runs = append(g.Runs, gr)
	}
	return g
}

func checkGolden(t *testing.T, ct *judgetest.CorpusTrace, rep *engine.Report) {
	path := filepath.Join(judgetest.CorpusRoot(t), "golden", ct.Dir, ct.Name+".json")
	got, err := json.MarshalIndent(toGolden(rep), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no golden report (run go test ./internal/judge -update): %v", err)
	}
	if string(want) != string(got) {
		t.Errorf("report differs from %s (run go test ./internal/judge -run TestCorpus -update and review the diff)", path)
	}
}

// Every check fails some violation trace, and every judged clause of every
// revision passes on some conforming (good or recorded) trace: a check that
// cannot fail, or a clause nothing shows passing, is not a check.
func TestEveryCheckCanFailAndPass(t *testing.T) {
	failed, passed := map[string]bool{}, map[string]bool{}
	for _, ct := range judgetest.LoadCorpus(t) {
		rep := judgeTrace(t, ct)
		for _, run := range rep.Runs {
			for _, c := range run.Clauses {
				switch {
				case (c.Outcome == engine.Fail || c.Outcome == engine.Warn) && ct.Violation:
					failed[c.Clause.Check] = true
				case c.Outcome == engine.Pass && !ct.Violation:
					passed[run.Revision+" "+c.Clause.ID] = true
				}
			}
		}
	}
	for _, c := range engine.Checks() {
		if !failed[c.ID] {
			t.Errorf("check %s fails no violation trace in corpus/violations", c.ID)
		}
	}
	for _, rev := range spec.Revisions {
		for _, c := range spec.MustLoad(rev).Clauses {
			if c.Judged() && !passed[rev+" "+c.ID] {
				t.Errorf("%s %s (check %s) passes on no conforming trace in corpus/good or corpus/recorded", rev, c.ID, c.Check)
			}
		}
	}
}

// Every clause names an implemented check, and every check is named.
func TestRegistryAndChecksAgree(t *testing.T) {
	named := map[string]bool{}
	for _, rev := range spec.Revisions {
		for _, c := range spec.MustLoad(rev).Clauses {
			if c.Judged() {
				named[c.Check] = true
				if !engine.HasCheck(c.Check) {
					t.Errorf("%s %s names check %q, which is not implemented", rev, c.ID, c.Check)
				}
			}
		}
	}
	for _, c := range engine.Checks() {
		if !named[c.ID] {
			t.Errorf("check %s is implemented but no clause names it", c.ID)
		}
	}
}

// The totals of every run add up to the size of its revision's registry,
// less the clauses of extensions not asked for, which the extension's own
// totals count.
func TestTotalsAddUpToTheRegistry(t *testing.T) {
	for _, ct := range judgetest.LoadCorpus(t) {
		for _, run := range judgeTrace(t, ct).Runs {
			ext := 0
			for _, e := range run.Extensions {
				ext += e.Totals.Sum()
			}
			if got, want := run.Totals.Sum()+ext, len(spec.MustLoad(run.Revision).Clauses); got != want {
				t.Errorf("%s: totals and extensions add up to %d, the %s registry has %d clauses", ct.Name, got, run.Revision, want)
			}
		}
	}
}
