package action

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// baselineAuto is the baseline input that asks for the base branch's
// newest successful run's report; failOnNew the fail-on value that gates
// on what is new since it.
const (
	baselineAuto = "auto"
	failOnNew    = "new"
)

// resolveBaseline is the --baseline the command line gets: the path the
// input names, or, for auto, the report.json downloaded from the base
// branch's newest successful run. Without one it is empty and says why
// in a notice; the run goes on without a delta either way.
func (r *runner) resolveBaseline(ctx context.Context) string {
	switch r.in.Baseline {
	case "":
		return ""
	case baselineAuto:
	default:
		return r.keepAside(r.in.Baseline)
	}
	path, err := r.downloadBaseline(ctx)
	if err != nil {
		r.log.notice("baseline auto: %v; the run goes on without a baseline", err)
		return ""
	}
	return path
}

func (r *runner) downloadBaseline(ctx context.Context) (string, error) {
	branch := baseBranch(r.ctx.BaseRef, r.ctx.Event)
	switch {
	case branch == "":
		return "", errorf("no base branch: the event names neither a pull request's base nor the repository's default branch; set baseline to a report.json path")
	case r.in.Token == "":
		return "", errorf("no token to read the base branch's runs with; set the input token")
	}
	api := githubREST{client: r.env.HTTP, apiURL: r.ctx.APIURL, repo: r.ctx.Repository, token: r.in.Token}
	found, err := api.baselineReport(ctx, branch, workflowFile(r.env.Getenv("GITHUB_WORKFLOW_REF")), r.ctx.Job)
	if err != nil {
		return "", err
	}
	path, err := r.writeBaseline(found.report)
	if err != nil {
		return "", err
	}
	r.log.info("mcpverdict: baseline: %s of the artifact %q of run %d on %s", reportFile, found.artifact, found.run, branch)
	return path, nil
}

// keepAside copies a baseline that lies in the output directory, whose
// reports the run replaces, to a file of its own; one that cannot be read
// is left for the command line to say so.
func (r *runner) keepAside(path string) string {
	rel, err := filepath.Rel(r.in.OutputDir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return path
	}
	aside, err := r.writeBaseline(data)
	if err != nil {
		return path
	}
	return aside
}

// writeBaseline keeps a baseline report in a temporary directory of its own.
func (r *runner) writeBaseline(report []byte) (string, error) {
	dir, err := os.MkdirTemp(r.env.Getenv("RUNNER_TEMP"), "mcpverdict-baseline-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, reportFile)
	return path, os.WriteFile(path, report, 0o644)
}

// baseBranch is the branch a pull request targets, else the repository's
// default branch.
func baseBranch(baseRef string, event map[string]any) string {
	if baseRef != "" {
		return baseRef
	}
	if repo, ok := event["repository"].(map[string]any); ok {
		if b, ok := repo["default_branch"].(string); ok {
			return b
		}
	}
	return ""
}

// workflowFile is the workflow's file name in GITHUB_WORKFLOW_REF
// ("owner/repo/.github/workflows/ci.yml@refs/heads/main"), which the REST
// API takes as the workflow's id.
func workflowFile(ref string) string {
	ref, _, _ = strings.Cut(ref, "@")
	if !strings.Contains(ref, "/.github/workflows/") {
		return ""
	}
	return filepath.Base(ref)
}

// noteBaseline says, as a notice in the step's log, why a baseline the
// command line was given is not compared.
func (r *runner) noteBaseline(rep *cliReport) {
	if rep.Baseline != nil && !rep.Baseline.Compared() {
		r.log.notice("%s", rep.Baseline.Ignored)
	}
}

// gateOn is the step's exit status: under fail-on new, a failure since
// the baseline fails the step and a known one does not; without a
// baseline compared, new gates as must, and says so.
func (r *runner) gateOn(rep *cliReport) int {
	if r.in.FailOn != failOnNew || rep.Verdict == judge.VerdictIncomplete {
		return gate(rep.Verdict, r.in.FailOn)
	}
	if !rep.Baseline.Compared() {
		r.log.notice("fail-on new has no baseline to compare with: every MUST failure fails the step, as with fail-on must")
		return gate(rep.Verdict, "must")
	}
	if n := rep.Baseline.NewFailures(); n > 0 {
		r.log.info("mcpverdict: %d new failure(s) since the baseline", n)
		return exitcode.Fail
	}
	return exitcode.OK
}
