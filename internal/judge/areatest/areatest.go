// Package areatest holds one rule folder to the corpus: the test of each
// folder under internal/judge/rules calls Run, so a rule author runs the
// checks of one area, on the traces that concern them, with go test on the
// folder alone.
package areatest

import (
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Run checks the folder of the calling test: every check its rule files
// register fails the violation traces whose headers expect one of its
// clauses, and every clause of every revision those checks judge passes on
// some conforming trace. Subtests are named by check and by clause, and log
// the traces that showed them, so go test -v lists both.
func Run(t *testing.T) {
	_, file, _, _ := runtime.Caller(1)
	folder := filepath.Dir(file)
	checks := engine.ChecksIn(folder)
	if len(checks) == 0 {
		t.Fatalf("no check is registered from %s: a rule folder's test runs in the folder whose rule files call engine.Register", folder)
	}
	clauses := clausesOf(checks)
	corpus := judgetest.LoadCorpus(t)
	failing := failingTraces(t, corpus, clauses)
	for _, c := range checks {
		t.Run(c.ID, func(t *testing.T) {
			if len(failing[c.ID]) == 0 {
				t.Fatalf("check %s fails no violation trace in corpus/violations that expects one of its clauses", c.ID)
			}
			t.Logf("fails %s", strings.Join(failing[c.ID], ", "))
		})
	}
	passing := passingTraces(t, corpus, clauses)
	for _, key := range sortedKeys(clauses) {
		t.Run(strings.ReplaceAll(key, " ", "/"), func(t *testing.T) {
			if passing[key] == "" {
				t.Fatalf("%s (check %s) passes on no conforming trace in corpus/good, corpus/recorded or corpus/bare", key, clauses[key])
			}
			t.Logf("passes on %s", passing[key])
		})
	}
}

// clausesOf maps "REVISION CLAUSE" to the check that judges it, for every
// judged clause of every revision that names one of checks.
func clausesOf(checks []engine.Check) map[string]string {
	mine := map[string]bool{}
	for _, c := range checks {
		mine[c.ID] = true
	}
	out := map[string]string{}
	for _, rev := range spec.Revisions {
		for _, c := range spec.MustLoad(rev).Clauses {
			if c.Judged() && mine[c.Check] {
				out[rev+" "+c.ID] = c.Check
			}
		}
	}
	return out
}

// failingTraces judges the violation traces that expect a fail or warn of
// one of clauses and lists, by check, the traces on which it was found.
func failingTraces(t *testing.T, corpus []*judgetest.CorpusTrace, clauses map[string]string) map[string][]string {
	ids := map[string]bool{}
	for key := range clauses {
		_, id, _ := strings.Cut(key, " ")
		ids[id] = true
	}
	out := map[string][]string{}
	for _, ct := range corpus {
		if !ct.Violation || !expectsAny(ct, ids) {
			continue
		}
		for _, run := range judgeTrace(t, ct).Runs {
			for _, c := range run.Clauses {
				check, mine := clauses[run.Revision+" "+c.Clause.ID]
				if mine && (c.Outcome == judge.Fail || c.Outcome == judge.Warn) {
					out[check] = append(out[check], ct.Dir+"/"+ct.Name)
				}
			}
		}
	}
	return out
}

// passingTraces judges conforming traces until every one of clauses has
// passed on one, and names that trace for each.
func passingTraces(t *testing.T, corpus []*judgetest.CorpusTrace, clauses map[string]string) map[string]string {
	out := map[string]string{}
	for _, ct := range corpus {
		if ct.Violation || len(out) == len(clauses) {
			continue
		}
		for _, run := range judgeTrace(t, ct).Runs {
			for _, c := range run.Clauses {
				key := run.Revision + " " + c.Clause.ID
				if _, mine := clauses[key]; mine && c.Outcome == judge.Pass && out[key] == "" {
					out[key] = ct.Dir + "/" + ct.Name
				}
			}
		}
	}
	return out
}

// expectsAny reports whether the trace's header expects an outcome of one
// of the clause ids ("REV CLAUSE outcome" lines).
func expectsAny(ct *judgetest.CorpusTrace, ids map[string]bool) bool {
	for key := range ct.Expect {
		if fields := strings.Fields(key); len(fields) == 3 && ids[fields[1]] {
			return true
		}
	}
	return false
}

func judgeTrace(t *testing.T, ct *judgetest.CorpusTrace) *judge.Report {
	name, r := ct.Open(t)
	return judge.Judge([]judge.Input{{Name: name, Next: r.Next}}, judge.Options{Revisions: ct.Revisions, Party: ct.Party})
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
