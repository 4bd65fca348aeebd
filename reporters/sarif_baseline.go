package reporters

import (
	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/mcpverdict/mcpverdict/internal/baseline"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// The baselineState values (SARIF §3.27.24) a result takes against the
// baseline: a result of a clause that did not fail then is new; a probe
// verdict that failed then otherwise is updated; anything else the
// baseline had already.
const (
	stateNew       = "new"
	stateUpdated   = "updated"
	stateUnchanged = "unchanged"
)

// withBaselineState marks a result against the baseline, when one was
// compared.
func (b *sarifRun) withBaselineState(res *sarif.Result, f *Finding) *sarif.Result {
	if b.delta == nil {
		return res
	}
	return res.WithBaselineState(baselineState(b.delta, f))
}

func baselineState(d *baseline.Delta, f *Finding) string {
	switch f.Source {
	case FromContract:
		if d.IsNew(f.Run.Revision, f.Clause.Clause.ID) || newContract(d, f.Clause.Clause.ID, f.Judged.Message) {
			return stateNew
		}
	case FromClause:
		if d.IsNew(f.Run.Revision, f.Clause.Clause.ID) {
			return stateNew
		}
	case FromWire:
		if d.IsNew(f.Run.Revision, baseline.WireSchema) {
			return stateNew
		}
	case FromProbe:
		move, moved := d.ProbeMove(f.Probe.Definition.Name, f.Tool, f.Verdict.Test)
		switch {
		case !moved:
		case !probeAttention(probe.Outcome(move.Then)):
			return stateNew
		default:
			return stateUpdated
		}
	}
	return stateUnchanged
}

// newContract says a contract finding, as the reports show it (visibly),
// is one the baseline did not have.
func newContract(d *baseline.Delta, clause, visibleMessage string) bool {
	for _, c := range d.Contracts {
		if c.Change == "new" && c.Clause == clause && wiretext.Visible(c.Message) == visibleMessage {
			return true
		}
	}
	return false
}
