package action

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/baseline"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// cliReport is the JSON report the command line wrote: the clause report, and
// of each tool-annotation probe its name and the count of each verdict.
type cliReport struct {
	*judge.Report
	Probes []probeOutcome `json:"probes"`
	// Baseline is the delta since the baseline, when one was given.
	Baseline *baseline.Delta `json:"baseline"`
}

type probeOutcome struct {
	Definition struct {
		Name string `json:"name"`
	} `json:"definition"`
	Summary map[string]int `json:"summary"`
}

// readReport reads the JSON report the command line wrote.
func readReport(path string) (*cliReport, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rep := cliReport{Report: &judge.Report{}}
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &rep, nil
}

// stepOutputs are the action's outputs (action.yml): the verdict, the
// clause counts, and where each report, trace and piece of evidence is,
// relative to the workspace so that later steps can use them as they are.
func stepOutputs(rep *cliReport, in *Inputs, workspace, artifactID string) []Output {
	path := func(name string) string { return relTo(workspace, filepath.Join(in.OutputDir, name)) }
	violations, probeReports := 0, []string{}
	for _, p := range rep.Probes {
		violations += p.Summary["VIOLATION"]
		probeReports = append(probeReports, path(filepath.Join("probe", reporters.Slug(p.Definition.Name), "probe-report.json")))
	}
	out := []Output{
		{"verdict", string(rep.Verdict)},
		{"failed", strconv.Itoa(rep.Totals.Fail)},
		{"warned", strconv.Itoa(rep.Totals.Warn)},
		{"passed", strconv.Itoa(rep.Totals.Pass)},
		{"sarif", path(sarifFile)},
		{"junit", path(junitFile)},
		{"summary", path(summaryFile)},
		{"report", path(reportFile)},
		{"traces", strings.Join(tracePaths(rep.Report, workspace), "\n")},
		{"artifact-id", artifactID},
		{"probe-violations", strconv.Itoa(violations)},
		{"probe-reports", strings.Join(probeReports, "\n")},
	}
	return append(out, evidenceOutputs(in, workspace)...)
}

// tracePaths lists each trace once, in report order.
func tracePaths(rep *judge.Report, workspace string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rep.Runs {
		p := relTo(workspace, r.Trace)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// relTo makes path relative to the workspace when it lies inside it.
func relTo(workspace, path string) string {
	if workspace == "" || !filepath.IsAbs(path) {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(workspace, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return filepath.ToSlash(rel)
}

// gate is the step's exit status under fail-on: must fails on a failed
// verdict, should also on warnings, never on nothing the verdict says. A
// trace that could not be read whole fails unless fail-on is never.
func gate(v judge.Verdict, failOn string) int {
	if failOn == "never" {
		return exitcode.OK
	}
	switch v {
	case judge.VerdictFail:
		return exitcode.Fail
	case judge.VerdictPassWithWarnings:
		if failOn == "should" {
			return exitcode.Fail
		}
	case judge.VerdictIncomplete:
		return exitcode.Malformed
	}
	return exitcode.OK
}
