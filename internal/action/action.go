// Package action is the GitHub Action's entrypoint (`mcpverdict action`):
// it reads the inputs and the workflow context from the environment the
// runner gives a container action, runs check (or validate, for recorded
// traces) in-process with every report written into the output directory,
// then publishes: the job summary, the annotations, the SARIF upload to code
// scanning, the output directory as a workflow artifact, the step outputs,
// and an exit status that gates the merge as fail-on says.
package action

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/sethvargo/go-githubactions"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
)

// Env is what the action runs with: the environment, the step's log, an
// HTTP client for GitHub's services and the command line to run.
type Env struct {
	// Getenv reads the environment (INPUT_*, GITHUB_*, ACTIONS_*).
	Getenv func(string) string
	// Stdout is the step's log, where workflow commands are read.
	Stdout io.Writer
	// Stderr receives the command line's progress.
	Stderr io.Writer
	// HTTP reaches the GitHub API and the artifact service.
	HTTP *http.Client
	// Run runs an mcpverdict command line and returns its exit status.
	Run func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// runner carries one run of the action.
type runner struct {
	env       Env
	log       logger
	gh        *githubactions.Action
	ctx       *githubactions.GitHubContext
	in        *Inputs
	workspace string
}

// Run runs the action and returns the step's exit status: 0 pass, 1 the
// gate failed, 2 bad inputs or nothing judgeable (or a server that could
// not be driven), 3 a trace that could not be read whole.
func Run(ctx context.Context, env Env) int {
	r := &runner{env: env, log: logger{env.Stdout}}
	r.gh = githubactions.New(githubactions.WithGetenv(env.Getenv), githubactions.WithWriter(env.Stdout))
	if code := r.setUp(); code != exitcode.OK {
		return code
	}
	return r.check(ctx)
}

// setUp reads the context and the inputs; a problem is one error
// annotation and exit 2.
func (r *runner) setUp() int {
	gh, err := r.gh.Context()
	if err != nil {
		r.log.error("cannot read the workflow context: %v", err)
		return exitcode.Usage
	}
	r.ctx, r.workspace = gh, gh.Workspace
	if r.workspace == "" {
		r.workspace, _ = os.Getwd()
	}
	if r.in, err = readInputs(r.gh, r.workspace); err != nil {
		r.log.error("%v", err)
		return exitcode.Usage
	}
	note, err := becomeWorkspaceOwner(r.workspace)
	if err != nil {
		r.log.error("%v", err)
		return exitcode.Usage
	}
	if note != "" {
		r.log.info("mcpverdict: %s", note)
	}
	return exitcode.OK
}

func (r *runner) check(ctx context.Context) int {
	traces, err := expandTraces(r.workspace, r.in.Traces)
	if err != nil {
		r.log.error("%v", err)
		return exitcode.Usage
	}
	base := r.resolveBaseline(ctx) // before the output directory is emptied: it may lie there
	if err := r.prepareOutputDir(); err != nil {
		r.log.error("%v", err)
		return exitcode.Usage
	}
	cliCode, cliMessage := r.runCommandLine(ctx, commandLine(r.in, traces, base))
	rep, err := readReport(filepath.Join(r.in.OutputDir, reportFile))
	if err != nil {
		r.log.error("mcpverdict wrote no report (exit status %d): %s", cliCode, cliMessage)
		return exitcode.Usage
	}
	r.noteBaseline(rep)
	r.publishSummary()
	r.printAnnotations()
	uploadFailed := r.uploadSARIF(ctx)
	signFailed := r.signHead(ctx) // before the upload, so the bundle is in the artifact
	artifactID := r.uploadArtifact(ctx)
	if err := writeOutputs(r.env.Getenv("GITHUB_OUTPUT"), stepOutputs(rep, r.in, r.workspace, artifactID)); err != nil {
		r.log.error("%v", err)
		return exitcode.Usage
	}
	r.log.info("mcpverdict: verdict %s (fail-on: %s)", rep.Verdict, r.in.FailOn)
	if cliCode == exitcode.Usage {
		r.log.error("%s", cliMessage)
		return exitcode.Usage
	}
	if uploadFailed || signFailed {
		return exitcode.Usage
	}
	return r.gateOn(rep)
}

// prepareOutputDir creates the output directory and removes the reports a
// previous run left there, so that a run that writes none is never read as
// one that did.
func (r *runner) prepareOutputDir() error {
	if err := os.MkdirAll(r.in.OutputDir, 0o755); err != nil {
		return err
	}
	for _, name := range []string{reportFile, textFile, sarifFile, junitFile, summaryFile, annotationsFile, ledgerFile, headFile, bundleFile} {
		if err := os.Remove(filepath.Join(r.in.OutputDir, name)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}
