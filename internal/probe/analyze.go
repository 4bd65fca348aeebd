package probe

import (
	"fmt"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
	"github.com/mcpverdict/mcpverdict/internal/probe/sandbox"
)

// maxChanges bounds the changes a report lists per delta; the counts are
// always complete.
const maxChanges = 20

func capChanges(cs []definition.Change) []definition.Change {
	if len(cs) > maxChanges {
		return cs[:maxChanges]
	}
	return cs
}

// analysis derives the facts the verdicts rest on from the evidence.
type analysis struct {
	ev       *evidence
	coverage Coverage
	sandbox  error
	// controlStable: the control sessions' business and unclassified
	// state agreed across runs.
	controlStable bool
	control2      *bool
	startup       definition.Delta
}

// caseFacts is what one case showed.
type caseFacts struct {
	ce          *caseEvidence
	once, twice []*definition.Delta // by run; nil where the session failed
	failures    []string
	errors      []ErroredCall
	onceStable  bool // business state agreed across runs
	twiceStable bool
	unstable    []Instability
	attempts    []Attempt
	network     []sandbox.NetAttempt // attempts after the first call
}

func newAnalysis(ev *evidence, coverage Coverage, sandbox error) *analysis {
	a := &analysis{ev: ev, coverage: coverage, sandbox: sandbox}
	a.controlStable = stableAcross(ev.Controls)
	if len(ev.Controls2) > 0 {
		s := stableAcross(ev.Controls2)
		a.control2 = &s
	}
	if len(ev.Controls) > 0 && ev.Controls[0].Err == "" {
		a.startup = definition.DiffSnapshots(ev.Seeded, ev.Controls[0].Final)
	}
	return a
}

// stableAcross reports whether sessions of the same kind left the same
// business and unclassified state in every run.
func stableAcross(runs []*sessionResult) bool {
	for _, s := range runs {
		if s.Err != "" {
			return false
		}
	}
	for _, s := range runs[1:] {
		if statesDiffer(runs[0].Final, s.Final, definition.Business, definition.Unclassified) != nil {
			return false
		}
	}
	return true
}

// statesDiffer returns the categories in which two snapshots differ.
func statesDiffer(a, b definition.Snapshot, cats ...definition.Category) []definition.Category {
	counts := definition.DiffSnapshots(a, b).ByCategory()
	var out []definition.Category
	for _, c := range cats {
		if counts[c].Total() > 0 {
			out = append(out, c)
		}
	}
	return out
}

func (a *analysis) facts(ce *caseEvidence) *caseFacts {
	f := &caseFacts{ce: ce, onceStable: true, twiceStable: true}
	f.once = a.deltas(ce.Once, f)
	f.twice = a.deltas(ce.Twice, f)
	f.onceStable = f.stability("once", ce.Once)
	f.twiceStable = f.stability("twice", ce.Twice)
	f.collectErrors(ce)
	f.collectNetwork(append(append([]*sessionResult{}, ce.Once...), ce.Twice...))
	f.attempts = a.attempts(ce, f)
	return f
}

// deltas diffs each run's session against the same run's control.
func (a *analysis) deltas(sessions []*sessionResult, f *caseFacts) []*definition.Delta {
	out := make([]*definition.Delta, len(sessions))
	for i, s := range sessions {
		ctrl := a.ev.Controls[i]
		if s.Err != "" || ctrl.Err != "" {
			f.failures = append(f.failures, fmt.Sprintf("%s: %s", s.Label, firstNonEmpty(s.Err, ctrl.Err)))
			continue
		}
		d := definition.DiffSnapshots(ctrl.Final, s.Final)
		out[i] = &d
	}
	return out
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// stability compares a session kind's final state across runs, category
// by category, and records any instability; it returns whether the
// business state agreed.
func (f *caseFacts) stability(kind string, sessions []*sessionResult) bool {
	seen := map[definition.Category]bool{}
	for _, s := range sessions[1:] {
		if s.Err != "" || sessions[0].Err != "" {
			continue
		}
		for _, c := range statesDiffer(sessions[0].Final, s.Final, definition.Categories...) {
			seen[c] = true
		}
	}
	if len(seen) == 0 {
		return true
	}
	inst := Instability{Session: kind + " " + f.ce.Case.ID()}
	for _, c := range definition.Categories {
		if seen[c] {
			inst.Categories = append(inst.Categories, c)
		}
	}
	f.unstable = append(f.unstable, inst)
	return !seen[definition.Business]
}

// collectErrors lists every call that did not succeed, with whether the
// state changed across it.
func (f *caseFacts) collectErrors(ce *caseEvidence) {
	for i, s := range ce.Once {
		for p, c := range s.Calls {
			if c.Failed() {
				changed := f.once[i] != nil && len(f.once[i].Changes) > 0
				f.errors = append(f.errors, ErroredCall{Session: s.Label, Position: p + 1, Kind: c.Error, Message: c.Message, StateChanged: changed})
			}
		}
	}
	for i, s := range ce.Twice {
		for p, c := range s.Calls {
			if c.Failed() {
				f.errors = append(f.errors, ErroredCall{Session: s.Label, Position: p + 1, Kind: c.Error, Message: c.Message, StateChanged: f.changedAt(i, p)})
			}
		}
	}
}

// changedAt says whether the state changed across call p of run i's
// twice session: the first call against the control, the second against
// the run's once session.
func (f *caseFacts) changedAt(i, p int) bool {
	if p == 0 {
		return f.twice[i] != nil && len(f.twice[i].Changes) > 0
	}
	if i >= len(f.ce.Once) || f.ce.Once[i].Err != "" || f.ce.Twice[i].Err != "" {
		return false
	}
	return len(definition.DiffSnapshots(f.ce.Once[i].Final, f.ce.Twice[i].Final).Changes) > 0
}

// collectNetwork keeps the connection attempts made after a session's
// first call; those before it belong to start-up.
func (f *caseFacts) collectNetwork(sessions []*sessionResult) {
	for _, s := range sessions {
		for _, n := range s.Net {
			if !s.FirstCall.IsZero() && n.At >= s.FirstCall.UnixNano() {
				f.network = append(f.network, n)
			}
		}
	}
}

// attempts judges each concurrent attempt: its overlap, and whether its
// business delta (from the control of its mode) differs from a single
// call's.
func (a *analysis) attempts(ce *caseEvidence, f *caseFacts) []Attempt {
	var out []Attempt
	ref := f.reference()
	for mode, sessions := range map[string][]*sessionResult{definition.ModeSingleConnection: ce.Single, definition.ModeTwoProcess: ce.TwoProcess} {
		ctrl := a.ev.Controls
		if mode == definition.ModeTwoProcess {
			ctrl = a.ev.Controls2
		}
		for i, s := range sessions {
			out = append(out, judgeAttempt(mode, i+1, s, ctrl, ref))
		}
	}
	sortAttempts(out)
	return out
}

// reference is the business delta of a single call (run 1's once
// session), nil when there is none to compare with.
func (f *caseFacts) reference() *definition.Delta {
	if len(f.once) == 0 || f.once[0] == nil {
		return nil
	}
	d := f.once[0].Only(definition.Business)
	return &d
}

func judgeAttempt(mode string, n int, s *sessionResult, ctrl []*sessionResult, ref *definition.Delta) Attempt {
	at := Attempt{Mode: mode, Attempt: n, Traces: baseNames(s.Traces), Failure: s.Err}
	for _, c := range s.Calls {
		if c.Failed() {
			at.Errors = append(at.Errors, c.Error+": "+c.Message)
		}
	}
	if s.Err != "" || len(s.Calls) != 2 {
		return at
	}
	at.OverlapUS, at.RTTUS, at.Overlapped = overlapOf(s)
	if ref != nil && len(ctrl) > 0 && ctrl[0].Err == "" {
		d := definition.DiffSnapshots(ctrl[0].Final, s.Final).Only(definition.Business)
		at.Diverged = !d.Equal(*ref)
	}
	return at
}

// overlapOf measures how long both calls were in flight together and
// whether that exceeds the connections' round trips: only then were both
// requests with the server at once rather than one in transit.
func overlapOf(s *sessionResult) (overlapUS, rttUS int64, overlapped bool) {
	a, b := s.Calls[0], s.Calls[1]
	if a.Error == "timeout" || a.Error == "closed" || b.Error == "timeout" || b.Error == "closed" {
		return 0, 0, false
	}
	start := a.Sent
	if b.Sent.After(start) {
		start = b.Sent
	}
	end := a.Received
	if b.Received.Before(end) {
		end = b.Received
	}
	var rtt time.Duration
	for _, r := range s.RTT {
		rtt += r
	}
	if len(s.RTT) == 1 {
		rtt *= 2 // both calls share the one connection's transit
	}
	window := end.Sub(start)
	return window.Microseconds(), rtt.Microseconds(), window > rtt
}
