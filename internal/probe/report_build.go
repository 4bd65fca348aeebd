package probe

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
	"github.com/mcpverdict/mcpverdict/internal/probe/sandbox"
	"github.com/mcpverdict/mcpverdict/internal/provenance"
)

// report builds the report from everything observed.
func (r *runner) report(ev *evidence) *Report {
	rep := &Report{
		Schema: ReportSchemaID, Runs: r.opts.Runs, ConcurrentAttempts: r.opts.ConcurrentAttempts,
		Started: r.started.UTC(), Reset: ev.Reset,
		Definition: DefinitionInfo{Name: r.def.Name, Path: r.def.Path, SHA256: fileDigest(r.def.Path)},
		Coverage:   Coverage{Complete: len(r.def.State.Unobserved) == 0, Unobserved: r.def.State.Unobserved},
		Sandbox:    SandboxInfo{Available: r.sandbox == nil},
		Summary:    map[string]int{},
	}
	if r.sandbox != nil {
		rep.Sandbox.Reason = r.sandbox.Error()
	}
	rep.Provenance = r.provenance(ev)
	if r.keep {
		rep.Sessions.TraceDir = r.traceDir
	}
	if ev.Reset.Verified {
		r.fillVerdicts(rep, ev)
	} else {
		r.fillUnverified(rep)
	}
	for _, t := range rep.Tools {
		for _, tr := range t.Tests {
			rep.Summary[string(tr.Verdict)]++
		}
	}
	rep.Expectations = checkExpectations(r.def, rep)
	rep.DurationMS = time.Since(r.started).Milliseconds()
	return rep
}

func fileDigest(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// fillUnverified gives every test RESET_UNVERIFIED: nothing observed after
// an unreliable reset can be trusted.
func (r *runner) fillUnverified(rep *Report) {
	rep.Control.StartupChanges = definition.Delta{}.ByCategory()
	for _, name := range toolNames(r.cases) {
		tr := ToolReport{Tool: name, Contract: definition.Contract{Tool: name, Hints: map[string]definition.Hint{}}}
		for _, test := range definition.Tests {
			tr.Tests = append(tr.Tests, TestResult{
				Test: test, Hint: definition.TestHint[test], Declared: definition.Hint{Value: definition.HintUnread},
				Verdict: definition.ResetUnverified, Primary: definition.ResetDiffers, Observed: unknown,
				Detail: "two resets from the seed left different state; no session was run",
			})
		}
		rep.Tools = append(rep.Tools, tr)
	}
}

// toolNames lists the cases' tools in first-appearance order.
func toolNames(cases []definition.ToolCase) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cases {
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c.Name)
		}
	}
	return out
}

func (r *runner) fillVerdicts(rep *Report, ev *evidence) {
	a := newAnalysis(ev, rep.Coverage, r.sandbox)
	rep.Control = a.controlReport()
	for _, name := range definition.SortedKeys(ev.Contracts) {
		rep.Contracts = append(rep.Contracts, ev.Contracts[name])
	}
	facts := map[string][]*caseFacts{}
	for _, ce := range ev.Cases {
		f := a.facts(ce)
		facts[ce.Case.Name] = append(facts[ce.Case.Name], f)
		rep.Nondeterminism = append(rep.Nondeterminism, f.unstable...)
	}
	for _, name := range toolNames(r.cases) {
		rep.Tools = append(rep.Tools, a.toolReport(ev.Contracts[name], facts[name]))
	}
	rep.Sessions.Count = countSessions(ev)
	protocol := judgeTraces(tracesOf(ev))
	rep.Protocol = &protocol
}

// tracesOf lists the traces of every session of this run (an output folder
// may hold older ones).
func tracesOf(ev *evidence) []string {
	var out []string
	add := func(ss []*sessionResult) {
		for _, s := range ss {
			out = append(out, s.Traces...)
		}
	}
	add(ev.Controls)
	add(ev.Controls2)
	for _, ce := range ev.Cases {
		add(ce.Once)
		add(ce.Twice)
		add(ce.Single)
		add(ce.TwoProcess)
	}
	return out
}

func countSessions(ev *evidence) int {
	n := len(ev.Controls) + len(ev.Controls2)
	for _, ce := range ev.Cases {
		n += len(ce.Once) + len(ce.Twice) + len(ce.Single) + len(ce.TwoProcess)
	}
	return n
}

func (a *analysis) controlReport() ControlReport {
	c := ControlReport{Stable: a.controlStable, StartupChanges: a.startup.ByCategory(), Changes: capChanges(a.startup.Changes), TwoProcessStable: a.control2}
	for _, s := range a.ev.Controls {
		c.NetworkAttempts = append(c.NetworkAttempts, s.Net...)
		if s.Err != "" {
			c.Errors = append(c.Errors, s.Label+": "+s.Err)
		}
		for _, n := range s.Notes {
			c.Errors = append(c.Errors, s.Label+": "+n)
		}
	}
	return c
}

// tests judges each test of one tool over all its cases.
func (a *analysis) toolReport(contract definition.Contract, fs []*caseFacts) ToolReport {
	tr := ToolReport{Tool: contract.Tool, Contract: contract}
	ids := make([]string, len(fs))
	for i, f := range fs {
		ids[i] = f.ce.Case.ID()
		tr.Cases = append(tr.Cases, a.caseReport(f))
	}
	for _, test := range definition.Tests {
		props := make([]property, len(fs))
		for i, f := range fs {
			props[i] = a.property(test, f)
		}
		tr.Tests = append(tr.Tests, a.testResult(test, contract, combine(ids, props), fs))
	}
	return tr
}

func (a *analysis) property(test string, f *caseFacts) property {
	switch test {
	case definition.TestReadOnly:
		return a.readOnly(f)
	case definition.TestDestructive:
		return a.nonDestructive(f)
	case definition.TestSequentialIdempotence:
		return a.idempotent(f)
	case definition.TestConcurrentIdempotence:
		return a.converges(f)
	}
	return a.closedWorld(f)
}

func (a *analysis) testResult(test string, c definition.Contract, p property, fs []*caseFacts) TestResult {
	declared := c.Hint(definition.TestHint[test])
	v, primary := decide(test, declared, c.Hint(definition.ReadOnlyHint), p)
	return TestResult{
		Test: test, Hint: definition.TestHint[test], Declared: declared, Verdict: v, Primary: primary,
		Secondary: a.secondary(test, primary, p, fs), Observed: p.state, Detail: p.detail, ProducedBy: p.modes,
	}
}

// secondary lists what else the verdict's reader should know.
func (a *analysis) secondary(test string, primary definition.Reason, p property, fs []*caseFacts) []definition.Reason {
	var out []definition.Reason
	add := func(r definition.Reason, when bool) {
		if when && r != primary && !contains(out, r) {
			out = append(out, r)
		}
	}
	// A test that was not attempted (concurrency of a tool claiming no
	// idempotence) has nothing more to say.
	if p.state == unknown && p.reason != definition.ConcurrentNotAttempted {
		add(p.reason, true)
	}
	for _, f := range fs {
		add(definition.CallError, len(f.errors) > 0)
		add(definition.UnstableRuns, len(f.unstable) > 0)
		add(definition.SessionFailed, len(f.failures) > 0)
	}
	switch test {
	case definition.TestOpenWorld:
		add(definition.StartupNetwork, len(a.controlNetwork()) > 0)
	case definition.TestReadOnly:
		add(definition.AppendOnlyChanged, appendOnlyAdded(fs))
		fallthrough
	default:
		counts := a.startup.ByCategory()
		add(definition.StartupChanges, counts[definition.Business].Total()+counts[definition.Unclassified].Total() > 0)
	}
	return out
}

func contains(rs []definition.Reason, r definition.Reason) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

func (a *analysis) controlNetwork() []sandbox.NetAttempt {
	var out []sandbox.NetAttempt
	for _, s := range a.ev.Controls {
		out = append(out, s.Net...)
	}
	return out
}

func appendOnlyAdded(fs []*caseFacts) bool {
	for _, f := range fs {
		for _, ds := range [][]*definition.Delta{f.once, f.twice} {
			for _, d := range ds {
				if d != nil && d.ByCategory()[definition.AppendOnly].Total() > 0 {
					return true
				}
			}
		}
	}
	return false
}

// provenance says what made the report and what the server said of
// itself in the first control session.
func (r *runner) provenance(ev *evidence) Provenance {
	p := Provenance{Harness: r.opts.Harness, Definition: provenance.GitStateOf(r.def.Path), Toolchains: provenance.Toolchains()}
	if len(ev.Controls) > 0 && ev.Controls[0] != nil {
		c := ev.Controls[0]
		p.Initialize, p.ToolsList = c.Initialize, c.Pages
		p.Server = provenance.IdentifyServer(c.Initialize)
	}
	return p
}
