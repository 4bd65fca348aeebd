// Package baseline compares a run's report with the report.json of an
// earlier run (the base branch's, a release's, a committed one) and says
// what changed: clauses newly failing or fixed, contract findings that
// appeared or went, probe verdicts that moved.
package baseline

import (
	"cmp"
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Absent stands for a clause or a probe verdict one of the two reports
// does not hold.
const Absent = "absent"

// Delta is what changed since the baseline. When Ignored is set the
// baseline could not be compared with this run and the lists are empty.
type Delta struct {
	// Report is the baseline file as it was given.
	Report string `json:"report"`
	// Version and Verdict are the baseline's own.
	Version string        `json:"version,omitempty"`
	Verdict judge.Verdict `json:"verdict,omitempty"`
	// Ignored says why no delta was computed.
	Ignored string `json:"ignored,omitempty"`
	// New are the clauses that fail (or warn) now and did not then; Fixed
	// those that failed (or warned) then and do not now.
	New   []ClauseChange `json:"new"`
	Fixed []ClauseChange `json:"fixed"`
	// Contracts are the contract findings that appeared or went.
	Contracts []ContractChange `json:"contracts"`
	// Probes are the probe verdicts that moved.
	Probes []ProbeChange `json:"probes"`
}

// ClauseChange is one clause whose outcome moved, over the runs of one
// revision: its worst outcome then and now.
type ClauseChange struct {
	Clause   string `json:"clause"`
	Revision string `json:"revision"`
	Level    string `json:"level"`
	Then     string `json:"then"`
	Now      string `json:"now"`
}

// ContractChange is one contract finding present in one report only.
type ContractChange struct {
	Clause string `json:"clause"`
	// Change is "new" (drift this run found) or "gone" (drift the
	// baseline had, no longer found).
	Change  string `json:"change"`
	Message string `json:"message"`
}

// ProbeChange is one probe verdict that is not what it was.
type ProbeChange struct {
	Definition string `json:"definition"`
	Tool       string `json:"tool"`
	Test       string `json:"test"`
	Then       string `json:"then"`
	Now        string `json:"now"`
}

// Compared says the delta holds a comparison (not an ignored baseline).
func (d *Delta) Compared() bool { return d != nil && d.Ignored == "" }

// Empty says nothing changed.
func (d *Delta) Empty() bool {
	return len(d.New)+len(d.Fixed)+len(d.Contracts)+len(d.Probes) == 0
}

// NewFailures counts what fail-on new fails on: MUST clauses failing now
// that did not then, contract drift the baseline did not have, and probe
// verdicts that became failing ones.
func (d *Delta) NewFailures() int {
	if !d.Compared() {
		return 0
	}
	n := 0
	for _, c := range d.New {
		if c.Now == string(judge.Fail) && spec.Level(c.Level).Binding() == "must" {
			n++
		}
	}
	for _, c := range d.Contracts {
		if c.Change == "new" {
			n++
		}
	}
	for _, p := range d.Probes {
		if failingProbe(p.Now) && !failingProbe(p.Then) {
			n++
		}
	}
	return n
}

// IsNew says a clause of a revision is among the new ones.
func (d *Delta) IsNew(revision, clause string) bool {
	if !d.Compared() {
		return false
	}
	return slices.ContainsFunc(d.New, func(c ClauseChange) bool { return c.Revision == revision && c.Clause == clause })
}

// IsNewContract says a contract finding is one the baseline did not have.
func (d *Delta) IsNewContract(clause, message string) bool {
	if !d.Compared() {
		return false
	}
	return slices.ContainsFunc(d.Contracts, func(c ContractChange) bool {
		return c.Change == "new" && c.Clause == clause && c.Message == message
	})
}

// ProbeMove is the change of one probe verdict, if it moved.
func (d *Delta) ProbeMove(definition, tool, test string) (ProbeChange, bool) {
	if !d.Compared() {
		return ProbeChange{}, false
	}
	i := slices.IndexFunc(d.Probes, func(p ProbeChange) bool {
		return p.Definition == definition && p.Tool == tool && p.Test == test
	})
	if i < 0 {
		return ProbeChange{}, false
	}
	return d.Probes[i], true
}

func failingProbe(v string) bool {
	return v == string(probe.Violation) || v == string(probe.ResetUnverified)
}

// severity orders what needs attention: a failure over a warning over
// anything else.
func severity(outcome string) int {
	switch judge.Outcome(outcome) {
	case judge.Fail:
		return 2
	case judge.Warn:
		return 1
	}
	return 0
}

// outcomeRank orders outcomes for the worst over several runs: a clause
// that failed in one session failed.
var outcomeRank = map[judge.Outcome]int{
	judge.Fail: 5, judge.Warn: 4, judge.Pass: 3, judge.NotObserved: 2, judge.NotApplicable: 1, judge.Excluded: 0,
}

func sortChanges(list []ClauseChange) {
	slices.SortFunc(list, func(a, b ClauseChange) int {
		return cmp.Or(cmp.Compare(a.Revision, b.Revision), cmp.Compare(a.Clause, b.Clause))
	})
}
