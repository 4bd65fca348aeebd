package action

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/bmatcuk/doublestar/v4"
)

// The reports the action asks the command line for, in the output
// directory: report.json and report.txt are the names check gives them.
const (
	reportFile      = "report.json"
	textFile        = "report.txt"
	sarifFile       = "mcpverdict.sarif"
	junitFile       = "junit.xml"
	summaryFile     = "summary.md"
	annotationsFile = "annotations.txt"
	htmlFile        = "report.html"
)

// commandLine is the mcpverdict command the inputs ask for: check for a
// server, a URL or a client; validate for recorded traces; baseline is
// the report to compare with (resolveBaseline), if any.
func commandLine(in *Inputs, traces []string, baseline string) []string {
	dir := in.OutputDir
	var args []string
	if len(traces) > 0 {
		// check writes report.html into --out itself; validate has no
		// output directory, so it is named.
		args = []string{"validate", "--ledger", filepath.Join(dir, ledgerFile), "--head-out", filepath.Join(dir, headFile),
			"--html", filepath.Join(dir, htmlFile)}
	} else {
		args = []string{"check", "--out", dir}
		args = appendFlag(args, "--server", in.Server)
		args = appendFlag(args, "--url", in.URL)
		args = appendFlag(args, "--client", in.Client)
		if in.ProbeRejections {
			args = append(args, "--probe-rejections")
		}
		for _, p := range in.Probes {
			args = append(args, "--probe", p)
		}
	}
	args = appendFlag(args, "--contract", in.Contract)
	args = appendFlag(args, "--baseline", baseline)
	for _, r := range in.Revisions {
		args = append(args, "--revision", r)
	}
	for _, e := range in.Extensions {
		args = append(args, "--extension", e)
	}
	args = appendFlag(args, "--party", in.Party)
	if in.Strict {
		args = append(args, "--strict")
	}
	args = append(args,
		"--json", filepath.Join(dir, reportFile),
		"--text", filepath.Join(dir, textFile),
		"--sarif", filepath.Join(dir, sarifFile),
		"--junit", filepath.Join(dir, junitFile),
		"--markdown", filepath.Join(dir, summaryFile),
		"--github", filepath.Join(dir, annotationsFile),
	)
	if len(traces) > 0 {
		args = append(append(args, "--"), traces...)
	}
	return args
}

func appendFlag(args []string, flag, value string) []string {
	if value == "" {
		return args
	}
	return append(args, flag, value)
}

// expandTraces resolves the trace globs (** allowed) against the
// workspace; a glob that matches no file is an error that names it.
func expandTraces(workspace string, globs []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, g := range globs {
		pattern := g
		if !filepath.IsAbs(pattern) {
			pattern = filepath.Join(workspace, pattern)
		}
		matches, err := doublestar.FilepathGlob(pattern, doublestar.WithFilesOnly())
		if err != nil {
			return nil, fmt.Errorf("traces glob %q is not a valid pattern: %v", g, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("traces glob %q matches no file under %s", g, workspace)
		}
		sort.Strings(matches)
		for _, m := range matches {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out, nil
}
