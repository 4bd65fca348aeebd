package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpverdict/mcpverdict/internal/evidence"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// This file is check --probe DEF.toml: the tool-annotation probe run after
// the driven sessions, its verdicts part of check's reports, exit status
// and ledger. (--probe-rejections, check_probe.go, is another thing.)

// hintProbes are check's tool-annotation probes: the definitions loaded
// before any session runs, and after they ran their reports, or the error
// that stopped them.
type hintProbes struct {
	defs    []*probe.Definition
	reports []*probe.Report
	err     error
}

// loadHintProbes loads every --probe definition before anything runs, so
// that a bad one (an unknown key, a placeholder left in, a mask matching
// nothing, a seed that does not load) stops check at once with the
// definition's one-line error and exit 2.
func loadHintProbes(paths []string, attempts int) (*hintProbes, error) {
	hp := &hintProbes{}
	if len(paths) > 0 && attempts < 1 {
		return nil, exitcode.New(exitcode.Usage, "--probe-attempts %d: give at least 1", attempts)
	}
	byDir := map[string]string{}
	for _, path := range paths {
		def, err := probe.Load(path)
		if err != nil {
			return nil, probeError(err)
		}
		dir := hintProbeDir("", def)
		if other, dup := byDir[dir]; dup {
			return nil, exitcode.New(exitcode.Usage, "%s: name: %q is also the name of %s; each probe's reports go to a folder named after it, so rename one", path, def.Name, other)
		}
		byDir[dir] = path
		hp.defs = append(hp.defs, def)
	}
	return hp, nil
}

// hintProbeDir is the folder inside check's --out that holds one
// definition's probe-report.json, probe-report.txt and probe-sessions/.
func hintProbeDir(outDir string, def *probe.Definition) string {
	return filepath.Join(outDir, "probe", reporters.Slug(def.Name))
}

// run probes each definition in turn and keeps its reports in its folder.
// The first that cannot run (a server that does not start) stops the rest:
// its error is kept for check's exit status, and no verdict is claimed.
func (hp *hintProbes) run(ctx context.Context, c *Command, f *checkFlags) {
	for _, def := range hp.defs {
		dir := hintProbeDir(f.outDir, def)
		if err := clearProbeOutputs(dir); err != nil {
			hp.err = err
			return
		}
		rep, err := probe.Run(ctx, def, probe.Options{
			Harness: VersionString(),
			Runs:    probe.MinRuns, ConcurrentAttempts: f.probeAttempts,
			TraceDir: filepath.Join(dir, probeSessionDir),
			Progress: func(line string) { fmt.Fprintf(c.Stderr, "mcpverdict: probe %s: %s\n", def.Name, line) },
		})
		if err == nil {
			_, err = keepProbeReport(rep, dir)
		}
		if err != nil {
			hp.err = probeError(err)
			return
		}
		hp.reports = append(hp.reports, rep)
	}
}

// clearProbeOutputs removes what an earlier run left in a probe's folder,
// so that a reused --out never shows an old run's report or sessions beside
// this one's. Only the files check writes there are removed.
func clearProbeOutputs(dir string) error {
	for _, name := range []string{probeReportJSON, probeReportText, probeSessionDir} {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return exitcode.New(exitcode.Usage, "%s: cannot clear the previous run's probe outputs: %v", dir, err)
		}
	}
	return nil
}

// foldInto makes a probe that failed (a violation, an unverified reset, a
// fixture verdict other than its truth) fail the clause report's verdict,
// as a failed MUST clause does; an incomplete verdict stays incomplete.
func (hp *hintProbes) foldInto(report *judge.Report) {
	for _, rep := range hp.reports {
		if rep.Failed() && report.Verdict != judge.VerdictIncomplete {
			report.Verdict = judge.VerdictFail
		}
	}
}

// evidence is what the ledger records of each probe that ran: its report
// and the probe-report.json kept in its folder of outDir.
func (hp *hintProbes) evidence(outDir string) []evidence.ProbeEvidence {
	out := make([]evidence.ProbeEvidence, len(hp.reports))
	for i, rep := range hp.reports {
		out[i] = evidence.ProbeEvidence{Report: rep, File: filepath.Join(hintProbeDir(outDir, hp.defs[i]), probeReportJSON)}
	}
	return out
}
