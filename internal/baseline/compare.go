package baseline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Current is the run a baseline is compared with: its clause report, the
// probes run with it and the servers it checked (as they named
// themselves; empty when no trace says).
type Current struct {
	Report  *judge.Report
	Probes  []*probe.Report
	Servers []string
}

// Compare is the delta of the current run since the baseline read from
// path, or a Delta whose Ignored says why the two cannot be compared: a
// baseline written by another mcpverdict version, or of another server.
func Compare(path string, base *Report, cur Current) *Delta {
	d := &Delta{Report: path, Version: base.Version, Verdict: base.Verdict,
		New: []ClauseChange{}, Fixed: []ClauseChange{}, Contracts: []ContractChange{}, Probes: []ProbeChange{}}
	if base.Version != cur.Report.Version {
		d.Ignored = fmt.Sprintf("%s was written by mcpverdict %s and this is %s, whose clauses and checks may differ: compare with a report this version wrote", path, base.Version, cur.Report.Version)
		return d
	}
	if then, now := base.servers(), distinctNames(cur.Servers); len(then) > 0 && len(now) > 0 && !overlap(then, now) {
		d.Ignored = fmt.Sprintf("%s is a report of server %s and this run checked %s: compare with a report of the same server", path, strings.Join(then, ", "), strings.Join(now, ", "))
		return d
	}
	d.New, d.Fixed = clauseChanges(worstOutcomes(base.Report), worstOutcomes(cur.Report))
	d.Contracts = contractChanges(contractFindings(base.Report), contractFindings(cur.Report))
	d.Probes = probeChanges(base.probeVerdicts(), currentProbeVerdicts(cur.Probes))
	return d
}

// clauseOutcome is a clause's worst outcome over the runs of a revision.
type clauseOutcome struct {
	clause, revision, level string
	outcome                 judge.Outcome
}

// WireSchema stands for the wire-schema check among the clauses: a
// message the revision's JSON Schema refuses is a MUST failure like any.
const WireSchema = "wire-schema"

func worstOutcomes(rep *judge.Report) map[string]clauseOutcome {
	out := map[string]clauseOutcome{}
	keep := func(c clauseOutcome) {
		key := c.revision + " " + c.clause
		if prev, seen := out[key]; !seen || outcomeRank[c.outcome] > outcomeRank[prev.outcome] {
			out[key] = c
		}
	}
	for _, r := range rep.Runs {
		for _, c := range r.Clauses {
			// An extension not asked for counts in no verdict, so what it
			// finds is never new either.
			if c.Clause != nil && !c.Uncounted {
				keep(clauseOutcome{clause: c.Clause.ID, revision: r.Revision, level: string(c.Clause.Level), outcome: c.Outcome})
			}
		}
		if wire, judged := wireOutcome(&r.Wire); judged {
			keep(clauseOutcome{clause: WireSchema, revision: r.Revision, level: string(spec.Must), outcome: wire})
		}
	}
	return out
}

func wireOutcome(w *judge.WireResult) (judge.Outcome, bool) {
	switch {
	case len(w.Invalid) > 0:
		return judge.Fail, true
	case w.Checked:
		return judge.Pass, true
	}
	return "", false
}

func clauseChanges(then, now map[string]clauseOutcome) (added, fixed []ClauseChange) {
	for key, n := range now {
		was := outcomeOf(then, key)
		if severity(string(n.outcome)) > severity(was) {
			added = append(added, ClauseChange{Clause: n.clause, Revision: n.revision, Level: n.level, Then: was, Now: string(n.outcome)})
		}
	}
	for key, t := range then {
		is := outcomeOf(now, key)
		if severity(string(t.outcome)) > severity(is) {
			fixed = append(fixed, ClauseChange{Clause: t.clause, Revision: t.revision, Level: t.level, Then: string(t.outcome), Now: is})
		}
	}
	sortChanges(added)
	sortChanges(fixed)
	return nonNil(added), nonNil(fixed)
}

func outcomeOf(m map[string]clauseOutcome, key string) string {
	if c, ok := m[key]; ok {
		return string(c.outcome)
	}
	return Absent
}

// contractFindings lists each contract finding as clause and message:
// what drifted, whichever session the lockfile was compared in.
func contractFindings(rep *judge.Report) []ContractChange {
	var out []ContractChange
	for _, r := range rep.Runs {
		for _, c := range r.Clauses {
			if c.Clause == nil || c.Clause.Area != "CONTRACT" {
				continue
			}
			for _, f := range c.Findings {
				out = append(out, ContractChange{Clause: c.Clause.ID, Message: f.Message})
			}
		}
	}
	return out
}

func contractChanges(then, now []ContractChange) []ContractChange {
	out := []ContractChange{}
	for _, c := range now {
		if !slices.Contains(then, c) {
			c.Change = "new"
			out = append(out, c)
		}
	}
	for _, c := range then {
		if !slices.Contains(now, c) {
			c.Change = "gone"
			out = append(out, c)
		}
	}
	return out
}

// probeKey names one verdict: the definition, the tool and the test.
type probeKey struct{ definition, tool, test string }

func currentProbeVerdicts(reports []*probe.Report) []probeVerdict {
	var out []probeVerdict
	for _, rep := range reports {
		for _, v := range rep.Verdicts() {
			out = append(out, probeVerdict{probeKey{v.Definition, v.Tool, v.Test}, string(v.Verdict)})
		}
	}
	return out
}

type probeVerdict struct {
	key     probeKey
	verdict string
}

func probeChanges(then, now []probeVerdict) []ProbeChange {
	was := map[probeKey]string{}
	for _, v := range then {
		was[v.key] = v.verdict
	}
	out := []ProbeChange{}
	seen := map[probeKey]bool{}
	for _, v := range now {
		seen[v.key] = true
		before, ok := was[v.key]
		if !ok {
			before = Absent
		}
		if before != v.verdict {
			out = append(out, ProbeChange{Definition: v.key.definition, Tool: v.key.tool, Test: v.key.test, Then: before, Now: v.verdict})
		}
	}
	for _, v := range then {
		if !seen[v.key] {
			out = append(out, ProbeChange{Definition: v.key.definition, Tool: v.key.tool, Test: v.key.test, Then: v.verdict, Now: Absent})
		}
	}
	return out
}

func distinctNames(names []string) []string {
	var out []string
	for _, n := range names {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func overlap(a, b []string) bool {
	return slices.ContainsFunc(a, func(s string) bool { return slices.Contains(b, s) })
}

func nonNil(list []ClauseChange) []ClauseChange {
	if list == nil {
		return []ClauseChange{}
	}
	return list
}
