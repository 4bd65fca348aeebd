package cli

import (
	"fmt"
	"path/filepath"

	"github.com/mcpverdict/mcpverdict/internal/evidence"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/progress"
	"github.com/mcpverdict/mcpverdict/internal/provenance"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// judgeSessions judges every session that left something to judge, writes
// the reports and maps the outcome to the exit status: the verdict's, unless
// a session could not be driven, which exits 2 (1 when a clause failed too).
func (c *Command) judgeSessions(sessions []*session, hp *hintProbes, opts judge.Options, f *checkFlags, p *progress.Progress, start runStart) error {
	var driven, probes []string
	probeNames := map[string]string{}
	for _, s := range sessions {
		c.reportSession(s, p)
		switch {
		case !s.judged():
		case s.probe != "":
			probes = append(probes, s.trace)
			probeNames[s.trace] = s.probe
		default:
			driven = append(driven, s.trace)
		}
	}
	problem := firstProblem(sessions)
	if len(driven)+len(probes) == 0 {
		if problem != nil {
			return exitWith(exitcode.Usage) // reportSession said what went wrong
		}
		return exitcode.New(exitcode.Usage, "nothing to judge: no session recorded an MCP message")
	}
	report, err := judgeSplit(driven, probes, probeNames, opts, f.maxLine)
	if err != nil {
		return err
	}
	markUndriven(report, sessions)
	describeRun(report)
	drift, err := c.contractDrift(&f.evidence, f.outDir, append(driven, probes...), report)
	if err != nil {
		return err
	}
	hp.foldInto(report)
	f.probes = hp.reports
	c.compareBaseline(&f.judgeFlags, report)
	if err := c.writeCheckReports(report, f); err != nil {
		return err
	}
	head, err := c.recordEvidence(f.outDir, append(driven, probes...), report, hp.evidence(f.outDir), drift, start)
	if err != nil {
		return err
	}
	if err := c.writeHTMLFiles(report, &f.judgeFlags, reporters.LedgerAt(head, filepath.Join(f.outDir, HeadFile)), drift, filepath.Join(f.outDir, HTMLFile)); err != nil {
		return err
	}
	if hp.err != nil {
		return hp.err // a probe that could not run claims no verdict: exit 2, its error last
	}
	status := c.status(&f.judgeFlags, report) // a contract finding or a failed probe fails the verdict
	if problem != nil && exitcode.Of(status) == exitcode.OK {
		return exitWith(exitcode.Usage)
	}
	return status
}

// markUndriven notes, on the run of each session that could not be driven
// to its end, what stopped it, and makes a verdict that would otherwise pass
// incomplete: what such a session left is judged, but a server that never
// finished a handshake has not passed anything. A failed verdict stays failed.
func markUndriven(report *judge.Report, sessions []*session) {
	for _, s := range sessions {
		if s.problem == nil {
			continue
		}
		for i := range report.Runs {
			if report.Runs[i].Trace == s.trace {
				report.Runs[i].Notes = append(report.Runs[i].Notes, fmt.Sprintf("the session could not be driven to its end: %v", s.problem))
			}
		}
		if report.Verdict != judge.VerdictFail {
			report.Verdict = judge.VerdictIncomplete
		}
	}
}

// reportSession prints a session's notes and what went wrong driving it.
func (c *Command) reportSession(s *session, p *progress.Progress) {
	for _, n := range s.notes {
		p.Note("%s: note: %s", s.name, n)
	}
	if s.problem != nil {
		p.Note("%s: %v (trace: %s)", s.name, s.problem, s.trace)
	}
}

// firstProblem is the first session that could not be driven.
func firstProblem(sessions []*session) error {
	for _, s := range sessions {
		if s.problem != nil {
			return s.problem
		}
	}
	return nil
}

// judgeSplit judges driven sessions with the user's options and probe
// sessions with the verdict scoped to the server, since a probe breaks a
// client rule on purpose, and merges the two reports.
func judgeSplit(driven, probes []string, probeNames map[string]string, opts judge.Options, maxLine int) (*judge.Report, error) {
	var reports []*judge.Report
	if len(driven) > 0 {
		r, err := judgeFiles(driven, opts, maxLine)
		if err != nil {
			return nil, err
		}
		reports = append(reports, r)
	}
	if len(probes) > 0 {
		popts := opts
		popts.Party = spec.Server
		r, err := judgeFiles(probes, popts, maxLine)
		if err != nil {
			return nil, err
		}
		for i := range r.Runs {
			name := probeNames[r.Runs[i].Trace]
			r.Runs[i].Notes = append(r.Runs[i].Notes, fmt.Sprintf("rejection probe %s: the driver breaks a client rule on purpose here, so only findings against the server count toward the verdict", name))
		}
		reports = append(reports, r)
	}
	return mergeReports(reports), nil
}

// verdictRank orders verdicts from best to worst.
var verdictRank = map[judge.Verdict]int{
	judge.VerdictPass: 0, judge.VerdictPassWithWarnings: 1, judge.VerdictFail: 2, judge.VerdictIncomplete: 3,
}

func mergeReports(reports []*judge.Report) *judge.Report {
	out := *reports[0]
	out.Runs = append([]judge.Run(nil), out.Runs...)
	for _, r := range reports[1:] {
		out.Runs = append(out.Runs, r.Runs...)
		out.Totals = addTotals(out.Totals, r.Totals)
		out.Extensions = judge.MergeExtensions(out.Extensions, r.Extensions)
		if verdictRank[r.Verdict] > verdictRank[out.Verdict] {
			out.Verdict = r.Verdict
		}
	}
	return &out
}

func addTotals(a, b judge.Totals) judge.Totals {
	return judge.Totals{
		Pass: a.Pass + b.Pass, Fail: a.Fail + b.Fail, Warn: a.Warn + b.Warn, NotObserved: a.NotObserved + b.NotObserved,
		NotApplicable: a.NotApplicable + b.NotApplicable, Excluded: a.Excluded + b.Excluded,
	}
}

// writeCheckReports prints the chosen format and keeps report.json and
// report.txt in the output directory (report.html follows the ledger).
func (c *Command) writeCheckReports(report *judge.Report, f *checkFlags) error {
	for name, file := range map[string]string{"json": "report.json", "text": "report.txt"} {
		rep, _ := reporters.Get(name)
		if err := writeRendered(rep, f.document(report), filepath.Join(f.outDir, file), reporters.Options{All: f.all}); err != nil {
			return exitcode.Wrap(exitcode.Usage, err)
		}
	}
	rep, err := reporters.Get(f.format)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	return c.writeReport(rep, report, &f.judgeFlags)
}

// describeRun says in the report what ran the check and, per trace, how
// the server named itself: check recorded the traces, so it knows both.
func describeRun(report *judge.Report) {
	report.Build, report.Toolchains = VersionString(), provenance.Toolchains()
	for i := range report.Runs {
		events, _ := trace.ReadFile(report.Runs[i].Trace)
		if self := evidence.ServerSelf(events); self != nil {
			id := provenance.IdentifyServer(self)
			report.Runs[i].Server = &id
		}
	}
}
