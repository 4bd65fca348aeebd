package probe

import (
	"fmt"
	"sort"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
)

// property is what one case showed about the strong form of a hint:
// holds, fails (with the reason that contradicts it) or unknown (with the
// reason it cannot be decided).
type property struct {
	state  string // holds, fails, unknown
	reason definition.Reason
	detail string
	modes  []string
}

const (
	holds   = "holds"
	fails   = "fails"
	unknown = "unknown"
)

func held(detail string) property { return property{state: holds, detail: detail} }
func failed(r definition.Reason, detail string) property {
	return property{state: fails, reason: r, detail: detail}
}
func undecided(r definition.Reason, detail string) property {
	return property{state: unknown, reason: r, detail: detail}
}

// uncertain returns why a state-based property of f cannot be decided,
// apart from what contradicts it: a failed session, incomplete coverage or
// an errored call.
func (a *analysis) uncertain(f *caseFacts) *property {
	switch {
	case len(f.failures) > 0:
		p := undecided(definition.SessionFailed, f.failures[0])
		return &p
	case !a.coverage.Complete:
		p := undecided(definition.IncompleteCoverage, fmt.Sprintf("state the adapters cannot observe: %v", a.coverage.Unobserved))
		return &p
	case len(f.errors) > 0:
		p := undecided(definition.CallError, fmt.Sprintf("%d call(s) failed, first: %s call %d: %s", len(f.errors), f.errors[0].Session, f.errors[0].Position, f.errors[0].Kind))
		return &p
	}
	return nil
}

func (a *analysis) unstableControl() *property {
	if a.controlStable {
		return nil
	}
	p := undecided(definition.UnstableControl, "the control sessions left different business or unclassified state from run to run")
	return &p
}

// readOnly: no business or unclassified change, and append-only records
// only added to, in any run.
func (a *analysis) readOnly(f *caseFacts) property {
	if p := a.unstableControl(); p != nil {
		return *p
	}
	if r, ch, run, ok := firstChange(f, writeReason); ok {
		return failed(r, fmt.Sprintf("run %d: %s %s in %s", run, ch.Kind, ch.Key, ch.Region))
	}
	if p := a.uncertain(f); p != nil {
		return *p
	}
	return held("no business, unclassified or rewritten append-only change in any run")
}

// writeReason says why a change is one a read-only tool may not make.
func writeReason(ch definition.Change) (definition.Reason, bool) {
	switch {
	case ch.Category == definition.Business:
		return definition.BusinessChange, true
	case ch.Category == definition.Unclassified:
		return definition.UnclassifiedChange, true
	case ch.Kind == definition.Removed || ch.Kind == definition.Overwritten:
		return definition.AppendOnlyRewritten, true
	}
	return "", false
}

// destroyReason says why a change destroys an existing business record.
func destroyReason(ch definition.Change) (definition.Reason, bool) {
	switch {
	case ch.Category != definition.Business:
		return "", false
	case ch.Kind == definition.Removed:
		return definition.RecordRemoved, true
	case ch.Kind == definition.Overwritten:
		return definition.RecordOverwritten, true
	}
	return "", false
}

// firstChange finds, in the once and then the twice deltas of every run,
// the first change pick objects to, and the run (from 1) it was in.
func firstChange(f *caseFacts, pick func(definition.Change) (definition.Reason, bool)) (definition.Reason, definition.Change, int, bool) {
	for _, ds := range [][]*definition.Delta{f.once, f.twice} {
		for run, d := range ds {
			if d == nil {
				continue
			}
			for _, ch := range d.Changes {
				if r, ok := pick(ch); ok {
					return r, ch, run + 1, true
				}
			}
		}
	}
	return "", definition.Change{}, 0, false
}

// nonDestructive: no business record that existed before the session was
// removed or overwritten.
func (a *analysis) nonDestructive(f *caseFacts) property {
	if p := a.unstableControl(); p != nil {
		return *p
	}
	if r, ch, run, ok := firstChange(f, destroyReason); ok {
		return failed(r, fmt.Sprintf("run %d: %s %s in %s", run, ch.Kind, ch.Key, ch.Region))
	}
	if p := a.uncertain(f); p != nil {
		return *p
	}
	return held("only additive business changes in every run")
}

// idempotent: twice leaves the same business state as once, in every run,
// with both stable across runs.
func (a *analysis) idempotent(f *caseFacts) property {
	if p := a.unstableControl(); p != nil {
		return *p
	}
	if len(f.failures) > 0 {
		return undecided(definition.SessionFailed, f.failures[0])
	}
	if !f.onceStable || !f.twiceStable {
		return undecided(definition.UnstableRuns, "the business state after the same calls differed between runs")
	}
	for run := range f.once {
		once, twice := f.once[run].Only(definition.Business), f.twice[run].Only(definition.Business)
		if !once.Equal(twice) {
			return failed(definition.TwiceDiffersFromOnce, fmt.Sprintf("run %d: %d business change(s) after one call, %d after two", run+1, len(once.Changes), len(twice.Changes)))
		}
	}
	if p := a.uncertain(f); p != nil {
		return *p
	}
	return held("two calls left the same business state as one in every run")
}

// converges: no concurrent attempt diverged from a single call, with
// overlap observed in both modes.
func (a *analysis) converges(f *caseFacts) property {
	if len(f.ce.Single)+len(f.ce.TwoProcess) == 0 {
		return undecided(definition.ConcurrentNotAttempted, "concurrent attempts run only for tools declaring idempotentHint: true")
	}
	if p := a.unstableControl(); p != nil {
		return *p
	}
	if f.reference() == nil || !f.onceStable {
		return undecided(definition.UnstableRuns, "no stable single-call state to compare the attempts with")
	}
	if a.control2 != nil && !*a.control2 {
		return undecided(definition.UnstableControl, "the two-process control sessions left different state from run to run")
	}
	if p := divergence(f.attempts); p != nil {
		return *p
	}
	return a.convergenceUncertain(f)
}

// divergence returns the failed property when any attempt diverged.
func divergence(attempts []Attempt) *property {
	modes := map[string]int{}
	for _, at := range attempts {
		if at.Diverged {
			modes[at.Mode]++
		}
	}
	if len(modes) == 0 {
		return nil
	}
	p := failed(definition.ConcurrentDiverged, "")
	for _, m := range []string{definition.ModeSingleConnection, definition.ModeTwoProcess} {
		if n := modes[m]; n > 0 {
			p.modes = append(p.modes, m)
			p.detail += fmt.Sprintf("%s: %d/%d diverged; ", m, n, countMode(attempts, m))
		}
	}
	p.detail = p.detail[:len(p.detail)-2]
	return &p
}

func countMode(attempts []Attempt, mode string) int {
	n := 0
	for _, at := range attempts {
		if at.Mode == mode {
			n++
		}
	}
	return n
}

func (a *analysis) convergenceUncertain(f *caseFacts) property {
	if !a.coverage.Complete {
		return undecided(definition.IncompleteCoverage, fmt.Sprintf("state the adapters cannot observe: %v", a.coverage.Unobserved))
	}
	for _, at := range f.attempts {
		if at.Failure != "" {
			return undecided(definition.SessionFailed, fmt.Sprintf("%s attempt %d: %s", at.Mode, at.Attempt, at.Failure))
		}
	}
	for _, m := range []string{definition.ModeSingleConnection, definition.ModeTwoProcess} {
		if modeCounts(f.attempts, m).Overlapped == 0 {
			return undecided(definition.NoOverlap, fmt.Sprintf("%s: no attempt had both calls with the server at once", m))
		}
	}
	for _, at := range f.attempts {
		if len(at.Errors) > 0 {
			return undecided(definition.CallError, fmt.Sprintf("%s attempt %d: %s", at.Mode, at.Attempt, at.Errors[0]))
		}
	}
	return held("every attempt converged on a single call's business state, with overlap in both modes")
}

func modeCounts(attempts []Attempt, mode string) ModeCounts {
	var c ModeCounts
	for _, at := range attempts {
		if at.Mode != mode {
			continue
		}
		c.Attempts++
		if at.Overlapped {
			c.Overlapped++
		}
		if at.Diverged {
			c.Diverged++
		}
		if len(at.Errors) > 0 {
			c.Errored++
		}
		if at.Failure != "" {
			c.Failed++
		}
	}
	return c
}

// closedWorld: no connection attempt after the first call.
func (a *analysis) closedWorld(f *caseFacts) property {
	if a.sandbox != nil {
		return undecided(definition.SandboxUnavailable, a.sandbox.Error())
	}
	if len(f.network) > 0 {
		n := f.network[0]
		return failed(definition.NetworkAttempt, fmt.Sprintf("%d connection attempt(s), first: %s %s%s", len(f.network), n.Kind, n.To, n.Name))
	}
	if len(f.failures) > 0 {
		return undecided(definition.SessionFailed, f.failures[0])
	}
	if len(f.errors) > 0 {
		return undecided(definition.CallError, fmt.Sprintf("%d call(s) failed; a failed call may not have reached its network code", len(f.errors)))
	}
	return held("no connection attempt after the first call in any session")
}

func sortAttempts(as []Attempt) {
	sort.Slice(as, func(i, j int) bool {
		if as[i].Mode != as[j].Mode {
			return as[i].Mode < as[j].Mode
		}
		return as[i].Attempt < as[j].Attempt
	})
}
