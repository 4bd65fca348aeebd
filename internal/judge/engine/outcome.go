package engine

import (
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// outcomes decides every clause of the revision: one row each, so the totals
// always add up to the registry.
// An extension's clauses have rows too, marked uncounted unless the
// extension was asked for; their totals are the run's Extensions.
func (r *run) outcomes(opts Options) ([]ClauseResult, Totals, []ExtensionResult) {
	var totals Totals
	var exts []ExtensionResult
	out := make([]ClauseResult, 0, len(r.reg.Clauses))
	for _, c := range r.reg.Clauses {
		cr := r.outcome(c, opts)
		cr.Uncounted = !tally(cr, &totals, &exts, opts)
		out = append(out, cr)
	}
	return out, totals, exts
}

func (r *run) outcome(c *spec.Clause, opts Options) ClauseResult {
	cr := ClauseResult{Clause: c}
	if c.Exclusion != "" {
		cr.Outcome, cr.Reason = Excluded, c.Exclusion
		return cr
	}
	if reason := r.outOfScope(c, opts); reason != "" {
		cr.Outcome, cr.Reason = NotApplicable, reason
		return cr
	}
	res := r.Results[c.Check]
	if res == nil {
		res = &checkResult{}
	}
	cr.Findings = findingsFor(c, res.Findings, opts.Party)
	cr.Examined = examinedFor(c, res, opts.Party)
	switch {
	case len(cr.Findings) > 0:
		cr.Outcome = Fail
		if c.Level.Binding() != "must" {
			cr.Outcome = Warn
		}
	case c.Capability != "" && !r.negotiated(c.Capability):
		cr.Outcome, cr.Reason = NotApplicable, fmt.Sprintf("capability %s was not negotiated", c.Capability)
	case cr.Examined > 0:
		cr.Outcome = Pass
	default:
		cr.Outcome, cr.Reason = NotObserved, "nothing in the trace exercised it"
	}
	return cr
}

func (r *run) outOfScope(c *spec.Clause, opts Options) string {
	if opts.Party != "" && c.Party != spec.Both && c.Party != opts.Party {
		return fmt.Sprintf("binds the %s; the verdict is scoped to the %s (--party %s)", c.Party, opts.Party, opts.Party)
	}
	if c.Transport != "" && r.transport != "" && string(r.transport) != c.Transport {
		return fmt.Sprintf("applies to %s only; this trace is over %s", c.Transport, r.transport)
	}
	return ""
}

// findingsFor keeps the findings held against the party the clause binds
// (and the party the verdict is scoped to).
func findingsFor(c *spec.Clause, all []Finding, scope spec.Party) []Finding {
	var out []Finding
	for _, f := range all {
		if (c.Party == spec.Both || f.Party == c.Party) && (scope == "" || f.Party == scope) {
			out = append(out, f)
		}
	}
	return out
}

func examinedFor(c *spec.Clause, res *checkResult, scope spec.Party) int {
	n := 0
	for _, p := range []spec.Party{spec.Client, spec.Server} {
		if (c.Party == spec.Both || c.Party == p) && (scope == "" || scope == p) {
			n += res.Examined[PartyIndex(p)]
		}
	}
	return n
}
