package probe

import (
	"fmt"
	"path/filepath"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
)

func (a *analysis) caseReport(f *caseFacts) CaseReport {
	cr := CaseReport{ID: f.ce.Case.ID(), Arguments: f.ce.Case.Arguments, Errors: f.errors, Failures: f.failures, Network: f.network}
	if cr.Arguments == nil {
		cr.Arguments = map[string]any{}
	}
	for _, s := range append(append([]*sessionResult{}, f.ce.Once...), f.ce.Twice...) {
		for _, n := range s.Notes {
			cr.Notes = append(cr.Notes, s.Label+": "+n)
		}
	}
	for run := range f.ce.Once {
		cr.Runs = append(cr.Runs, RunEvidence{
			Run:   run + 1,
			Once:  deltaEvidence(f.once[run], f.ce.Once[run]),
			Twice: deltaEvidence(f.twice[run], f.ce.Twice[run]),
		})
	}
	if len(f.attempts) > 0 {
		ce := &ConcurrentEvidence{Modes: map[string]ModeCounts{}, Attempts: f.attempts}
		for _, m := range []string{definition.ModeSingleConnection, definition.ModeTwoProcess} {
			ce.Modes[m] = modeCounts(f.attempts, m)
		}
		cr.Concurrent = ce
	}
	return cr
}

func deltaEvidence(d *definition.Delta, s *sessionResult) DeltaEvidence {
	de := DeltaEvidence{Traces: baseNames(s.Traces)}
	if d == nil {
		return de
	}
	de.Counts = d.ByCategory()
	de.Changes = capChanges(d.Changes)
	de.Omitted = len(d.Changes) - len(de.Changes)
	return de
}

func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}

// checkExpectations holds every recorded expectation to its verdict; nil
// when the definition records none (a target).
func checkExpectations(def *definition.Definition, rep *Report) *ExpectationCheck {
	var chk ExpectationCheck
	recorded := false
	for ti := range rep.Tools {
		tr := &rep.Tools[ti]
		for i := range tr.Tests {
			want, modes := expectationFor(def, tr.Tool, tr.Tests[i].Test)
			if want == "" {
				continue
			}
			recorded = true
			ok := matches(want, modes, tr.Tests[i])
			tr.Tests[i].Expected, tr.Tests[i].Matched = want, &ok
			chk.Checked++
			if ok {
				chk.Matched++
				continue
			}
			chk.Mismatches = append(chk.Mismatches, fmt.Sprintf("%s %s: expected %s, got %s:%s (%s)", tr.Tool, tr.Tests[i].Test, want, tr.Tests[i].Verdict, tr.Tests[i].Primary, tr.Tests[i].Detail))
		}
	}
	if !recorded {
		return nil
	}
	return &chk
}

// expectationFor finds the tool's recorded expectation for a test: the
// first of its cases that records one.
func expectationFor(def *definition.Definition, tool, test string) (string, []string) {
	for _, tc := range def.Tools {
		if tc.Name != tool || tc.Expected == nil {
			continue
		}
		if want := tc.Expected.ByTest(test); want != "" {
			var modes []string
			if test == definition.TestConcurrentIdempotence {
				modes = tc.Expected.ConcurrentViolationModes
			}
			return want, modes
		}
	}
	return "", nil
}

func matches(want string, modes []string, got TestResult) bool {
	v, r, err := definition.ParseExpectation(want)
	if err != nil || v != got.Verdict || (r != "" && r != got.Primary) {
		return false
	}
	for _, m := range modes {
		if !contains(toReasons(got.ProducedBy), definition.Reason(m)) {
			return false
		}
	}
	return true
}

func toReasons(ss []string) []definition.Reason {
	out := make([]definition.Reason, len(ss))
	for i, s := range ss {
		out[i] = definition.Reason(s)
	}
	return out
}
