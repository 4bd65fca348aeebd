package action

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/wiretext"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// runCommandLine runs mcpverdict in a log group and returns its exit
// status and the last line it wrote to stderr (its error, if it failed).
//
// What the command line prints quotes the server under test, so the runner
// is told to stop reading workflow commands while it runs
// (::stop-commands::, with a token no one can guess) and to read them again
// after; every line is guarded as well.
func (r *runner) runCommandLine(ctx context.Context, args []string) (int, string) {
	r.log.group("mcpverdict " + strings.Join(quoteArgs(args), " "))
	defer r.log.endGroup()
	token := stopToken()
	fmt.Fprintf(r.env.Stdout, "::stop-commands::%s\n", token)
	defer fmt.Fprintf(r.env.Stdout, "::%s::\n", token)
	var tail tailWriter
	stdout, stderr := wiretext.Guard(r.env.Stdout), wiretext.Guard(io.MultiWriter(r.env.Stderr, &tail))
	code := r.env.Run(ctx, args, stdout, stderr)
	stdout.Flush()
	stderr.Flush()
	return code, tail.lastLine()
}

// stopToken is a fresh token for ::stop-commands::, as GitHub advises:
// random, so that text printed while commands are stopped cannot end the
// stop.
func stopToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return "mcpverdict-" + hex.EncodeToString(b)
}

// sarifCategory reads the analysis category the command line gave the
// SARIF log (it names it after the server the trace recorded).
func sarifCategory(sarif []byte) string {
	var log struct {
		Runs []struct {
			AutomationDetails struct {
				ID string `json:"id"`
			} `json:"automationDetails"`
		} `json:"runs"`
	}
	if json.Unmarshal(sarif, &log) != nil || len(log.Runs) == 0 {
		return "mcpverdict/"
	}
	return log.Runs[0].AutomationDetails.ID
}

// quoteArgs shows arguments with spaces quoted, for the log.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " \t\"'") {
			a = fmt.Sprintf("%q", a)
		}
		out[i] = a
	}
	return out
}

// tailWriter keeps the last few KiB written to it.
type tailWriter struct{ buf []byte }

func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 8192 {
		t.buf = t.buf[len(t.buf)-8192:]
	}
	return len(p), nil
}

func (t *tailWriter) lastLine() string {
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimPrefix(lines[len(lines)-1], "mcpverdict: ")
}

// publishSummary appends the markdown report to the job summary.
func (r *runner) publishSummary() {
	path := r.env.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		r.log.info("mcpverdict: no GITHUB_STEP_SUMMARY: the job summary is in %s", relTo(r.workspace, filepath.Join(r.in.OutputDir, summaryFile)))
		return
	}
	md, err := os.ReadFile(filepath.Join(r.in.OutputDir, summaryFile))
	if err == nil {
		err = appendFile(path, string(md))
	}
	if err != nil {
		r.log.warning("the job summary was not written: %v", err)
	}
}

// printAnnotations prints the workflow commands the github format wrote,
// so that findings show on the pull request.
func (r *runner) printAnnotations() {
	data, err := os.ReadFile(filepath.Join(r.in.OutputDir, annotationsFile))
	if err != nil {
		r.log.warning("no annotations: %v", err)
		return
	}
	r.env.Stdout.Write(data)
}

// uploadSARIF sends the SARIF log to code scanning when the inputs and the
// token allow it. A refusal is a warning with the API's message; it fails
// the step only under sarif-upload: true.
func (r *runner) uploadSARIF(ctx context.Context) (failed bool) {
	sarifPath := relTo(r.workspace, filepath.Join(r.in.OutputDir, sarifFile))
	skip := func(format string, args ...any) bool {
		if r.in.SARIFUpload == "true" {
			r.log.error(format, args...)
			return true
		}
		r.log.notice(format, args...)
		return false
	}
	switch {
	case r.in.SARIFUpload == "false":
		return false
	case fromFork(r.ctx):
		r.log.notice("SARIF upload skipped: a pull request from a fork gets a read-only token, which cannot write code scanning results; the SARIF file is %s", sarifPath)
		return false
	case r.in.Token == "":
		return skip("SARIF upload skipped: no token (input token, default github.token, with permission security-events: write); the SARIF file is %s", sarifPath)
	case r.ctx.Repository == "" || r.ctx.SHA == "" || r.ctx.Ref == "":
		return skip("SARIF upload skipped: GITHUB_REPOSITORY, GITHUB_SHA and GITHUB_REF name the analysis and one is not set; the SARIF file is %s", sarifPath)
	}
	data, err := os.ReadFile(filepath.Join(r.in.OutputDir, sarifFile))
	if err != nil {
		return skip("SARIF upload skipped: %v", err)
	}
	up := sarifUpload{APIURL: r.ctx.APIURL, Repository: r.ctx.Repository, Token: r.in.Token, CommitSHA: r.ctx.SHA, Ref: r.ctx.Ref}
	id, err := uploadSARIF(ctx, r.env.HTTP, up, data)
	if err != nil {
		if r.in.SARIFUpload == "true" {
			r.log.error("%v; the reports are in %s", err, relTo(r.workspace, r.in.OutputDir))
			return true
		}
		r.log.warning("%v; the reports are in %s", err, relTo(r.workspace, r.in.OutputDir))
		return false
	}
	r.log.notice("SARIF uploaded to code scanning (analysis %s, category %s)", id, sarifCategory(data))
	return false
}

// uploadArtifact uploads the output directory as a workflow artifact when
// the runner's artifact service is reachable, and returns its id.
func (r *runner) uploadArtifact(ctx context.Context) string {
	if r.in.Artifact == "false" {
		return ""
	}
	dir := relTo(r.workspace, r.in.OutputDir)
	token, results := r.env.Getenv("ACTIONS_RUNTIME_TOKEN"), r.env.Getenv("ACTIONS_RESULTS_URL")
	if token == "" || results == "" {
		r.log.notice("the runner's artifact service is not reachable from this step (no ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL); to keep the reports, add a step:\n- uses: actions/upload-artifact@v4\n  if: always()\n  with:\n    name: mcpverdict\n    path: %s", dir)
		return ""
	}
	zip, err := zipDir(r.in.OutputDir)
	if err != nil {
		r.log.warning("the reports were not uploaded as an artifact: %v; use actions/upload-artifact with path %s", err, dir)
		return ""
	}
	sarif, _ := os.ReadFile(filepath.Join(r.in.OutputDir, sarifFile))
	name := artifactName(r.ctx.Job, r.ctx.RunAttempt, sarifCategory(sarif))
	svc := &artifactService{client: r.env.HTTP, resultsURL: results, token: token}
	id, err := svc.upload(ctx, name, zip)
	if err != nil {
		r.log.warning("the reports were not uploaded as an artifact: %v; use actions/upload-artifact with path %s", err, dir)
		return ""
	}
	r.log.notice("reports uploaded as the artifact %q (id %s, %d bytes)", name, id, len(zip))
	return id
}

// artifactName is unique per job and server within a run (artifact names
// must be; matrix jobs share a job name but check different servers), and
// per attempt when a job is re-run.
func artifactName(job string, attempt int64, category string) string {
	server := strings.TrimSuffix(strings.TrimPrefix(category, "mcpverdict/"), "/")
	name := "mcpverdict-" + reporters.Slug(job+" "+server)
	if attempt > 1 {
		name += fmt.Sprintf("-attempt-%d", attempt)
	}
	return name
}
