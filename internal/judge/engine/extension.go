package engine

import (
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// ExtensionResult is one extension's clauses in one run: judged like any
// other, counted in the run's totals only when the extension was asked for.
type ExtensionResult struct {
	Name    string `json:"name"`
	Counted bool   `json:"counted"`
	Totals  Totals `json:"totals"`
}

// ExtensionVerdict is one extension's verdict over every run of a report,
// beside the report's own.
type ExtensionVerdict struct {
	Name    string  `json:"name"`
	Counted bool    `json:"counted"`
	Totals  Totals  `json:"totals"`
	Verdict Verdict `json:"verdict"`
}

// extensionOn reports whether the extension's clauses count in the verdict.
func (o Options) extensionOn(name string) bool { return slices.Contains(o.Extensions, name) }

// tally adds a clause's outcome to the run's totals, or to its extension's
// (and to the run's as well when the extension was asked for); it reports
// whether the clause counts in the verdict.
func tally(cr ClauseResult, totals *Totals, exts *[]ExtensionResult, opts Options) bool {
	name := cr.Clause.Extension
	if name == "" {
		totals.Add(cr.Outcome)
		return true
	}
	i := slices.IndexFunc(*exts, func(e ExtensionResult) bool { return e.Name == name })
	if i < 0 {
		*exts = append(*exts, ExtensionResult{Name: name, Counted: opts.extensionOn(name)})
		i = len(*exts) - 1
	}
	e := &(*exts)[i]
	e.Totals.Add(cr.Outcome)
	if e.Counted {
		totals.Add(cr.Outcome)
	}
	return e.Counted
}

// extensionVerdicts sums each extension over the runs, in the order the
// build lists its extensions.
func extensionVerdicts(runs []Run, opts Options) []ExtensionVerdict {
	var out []ExtensionVerdict
	for _, name := range spec.Extensions {
		v := ExtensionVerdict{Name: name, Counted: opts.extensionOn(name)}
		seen, incomplete := false, false
		for _, r := range runs {
			incomplete = incomplete || r.Incomplete != ""
			for _, e := range r.Extensions {
				if e.Name == name {
					seen = true
					v.Totals.addAll(e.Totals)
				}
			}
		}
		if !seen {
			continue
		}
		v.Verdict = totalsVerdict(v.Totals, opts.Strict)
		if incomplete {
			v.Verdict = VerdictIncomplete
		}
		out = append(out, v)
	}
	return out
}

func totalsVerdict(t Totals, strict bool) Verdict {
	switch {
	case t.Pass+t.Fail+t.Warn == 0:
		return VerdictNotObserved
	case t.Fail > 0 || (strict && t.Warn > 0):
		return VerdictFail
	case t.Warn > 0:
		return VerdictPassWithWarnings
	}
	return VerdictPass
}

// Counted is the number of the run's clause rows its totals count: every
// row but those of extensions not asked for.
func (r *Run) Counted() int {
	n := 0
	for i := range r.Clauses {
		if !r.Clauses[i].Uncounted {
			n++
		}
	}
	return n
}

// MergeExtensions sums two reports' extension verdicts by name (check
// merges its driven and probe reports): totals add up, the worse verdict
// stands.
func MergeExtensions(a, b []ExtensionVerdict) []ExtensionVerdict {
	out := append([]ExtensionVerdict(nil), a...)
	for _, v := range b {
		i := slices.IndexFunc(out, func(e ExtensionVerdict) bool { return e.Name == v.Name })
		if i < 0 {
			out = append(out, v)
			continue
		}
		out[i].Totals.addAll(v.Totals)
		if verdictWorse(v.Verdict, out[i].Verdict) {
			out[i].Verdict = v.Verdict
		}
	}
	return out
}

// verdictWorse reports whether a is a worse verdict than b.
func verdictWorse(a, b Verdict) bool {
	rank := map[Verdict]int{VerdictNotObserved: -1, VerdictPass: 0, VerdictPassWithWarnings: 1, VerdictFail: 2, VerdictIncomplete: 3}
	return rank[a] > rank[b]
}
