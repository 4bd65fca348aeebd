// Package actiontest simulates what a GitHub Actions runner gives a
// container action: a workspace, the GITHUB_* variables and file commands,
// a pull_request event payload, INPUT_* variables, and local stand-ins for
// the GitHub API and the artifact service. Tests of the action, in-process
// and as the built binary, run against it.
package actiontest

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Runner is one simulated step's environment.
type Runner struct {
	Workspace string
	vars      map[string]string
	dir       string
	// checkedOut is set once Checkout has made the workspace a git work tree.
	checkedOut bool
}

// Repository is the repository the simulated workflow runs in.
const Repository = "octo-org/mcp-server"

// NewRunner lays out a workspace and the runner's files for a
// pull_request event from a branch of the repository itself (fromFork
// false) or from a fork.
func NewRunner(t testing.TB, fromFork bool) *Runner {
	t.Helper()
	dir := t.TempDir()
	r := &Runner{Workspace: filepath.Join(dir, "workspace"), dir: dir}
	for _, d := range []string{r.Workspace, filepath.Join(dir, "file_commands"), filepath.Join(dir, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	head := Repository
	if fromFork {
		head = "outsider/mcp-server"
	}
	event := map[string]any{
		"action": "synchronize", "number": 7,
		"pull_request": map[string]any{
			"number": 7,
			"head":   map[string]any{"sha": "0123456789abcdef0123456789abcdef01234567", "repo": map[string]any{"full_name": head, "fork": fromFork}},
			"base":   map[string]any{"repo": map[string]any{"full_name": Repository}},
		},
		"repository": map[string]any{"full_name": Repository, "name": "mcp-server", "owner": map[string]any{"login": "octo-org"}},
	}
	eventPath := filepath.Join(dir, "event.json")
	writeJSON(t, eventPath, event)
	r.vars = map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_WORKSPACE":    r.Workspace,
		"GITHUB_OUTPUT":       filepath.Join(dir, "file_commands", "set_output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "file_commands", "step_summary"),
		"GITHUB_EVENT_PATH":   eventPath,
		"GITHUB_EVENT_NAME":   "pull_request",
		"GITHUB_REPOSITORY":   Repository,
		"GITHUB_SHA":          "fedcba9876543210fedcba9876543210fedcba98",
		"GITHUB_REF":          "refs/pull/7/merge",
		"GITHUB_BASE_REF":     "main",
		"GITHUB_HEAD_REF":     "feature",
		"GITHUB_JOB":          "mcp",
		"GITHUB_RUN_ID":       "1234",
		"GITHUB_RUN_ATTEMPT":  "1",
		"GITHUB_RUN_NUMBER":   "5",
		"GITHUB_WORKFLOW_REF": Repository + "/.github/workflows/mcp.yml@refs/pull/7/merge",
		"HOME":                filepath.Join(dir, "home"),
		"INPUT_TOKEN":         "ghs_simulatedtoken",
	}
	return r
}

func writeJSON(t testing.TB, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Set sets a variable; SetInput sets INPUT_<NAME> as the runner does
// (upper case, dashes kept).
func (r *Runner) Set(key, value string)   { r.vars[key] = value }
func (r *Runner) Unset(key string)        { delete(r.vars, key) }
func (r *Runner) SetInput(name, v string) { r.vars["INPUT_"+strings.ToUpper(name)] = v }

// Getenv reads the simulated environment.
func (r *Runner) Getenv(key string) string { return r.vars[key] }

// Environ is the simulated environment as KEY=VALUE lines, for a child
// process, on top of base (PATH and the like).
func (r *Runner) Environ(base []string) []string {
	out := append([]string(nil), base...)
	keys := make([]string, 0, len(r.vars))
	for k := range r.vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+r.vars[k])
	}
	return out
}

// Outputs parses the step outputs the way the runner does.
func (r *Runner) Outputs(t testing.TB) map[string]string {
	t.Helper()
	data, err := os.ReadFile(r.vars["GITHUB_OUTPUT"])
	if err != nil {
		t.Fatalf("no outputs: %v", err)
	}
	out, err := ParseFileCommands(string(data))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Summary is what the step appended to the job summary.
func (r *Runner) Summary(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile(r.vars["GITHUB_STEP_SUMMARY"])
	if err != nil {
		t.Fatalf("no job summary: %v", err)
	}
	return string(data)
}

// ParseFileCommands reads an output file as the runner reads it: either
// "name=value" on one line or "name<<DELIMITER", the value's lines, and a
// line equal to the delimiter.
func ParseFileCommands(text string) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		eq, heredoc := strings.Index(line, "="), strings.Index(line, "<<")
		if heredoc > 0 && (eq < 0 || heredoc < eq) {
			name, delim := line[:heredoc], line[heredoc+2:]
			var value []string
			closed := false
			for sc.Scan() {
				if sc.Text() == delim {
					closed = true
					break
				}
				value = append(value, sc.Text())
			}
			if !closed {
				return nil, errUnclosed(name)
			}
			out[name] = strings.Join(value, "\n")
			continue
		}
		if eq <= 0 {
			return nil, errMalformed(line)
		}
		out[line[:eq]] = line[eq+1:]
	}
	return out, sc.Err()
}

type parseError string

func (e parseError) Error() string { return string(e) }

func errUnclosed(name string) error { return parseError("output " + name + ": delimiter never closed") }
func errMalformed(line string) error {
	return parseError("output file line is not a command: " + line)
}

// workflowFile is the workflow the simulated run comes from, as
// GITHUB_WORKFLOW_REF names it; the action's step is on line
// WorkflowStepLine.
const (
	workflowFile     = ".github/workflows/mcp.yml"
	WorkflowStepLine = 9
)

const workflowText = `name: mcp
on: pull_request
jobs:
  mcp:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm ci
      - uses: mcpverdict/mcpverdict@v1
        with:
          server: node index.js
`

// Checkout makes the workspace what actions/checkout leaves: a git work
// tree whose every file so far is committed, with the workflow that runs
// the action. Files written afterwards are what earlier steps of the job
// made, which git does not track. The step is the action's, as the
// runner names it.
func (r *Runner) Checkout(t testing.TB) {
	t.Helper()
	wf := filepath.Join(r.Workspace, filepath.FromSlash(workflowFile))
	if err := os.MkdirAll(filepath.Dir(wf), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wf, []byte(workflowText), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=runner", "-c", "user.email=runner@example.com", "commit", "-q", "-m", "checkout"},
	} {
		cmd := exec.Command("git", append([]string{"-C", r.Workspace}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	r.vars["GITHUB_ACTION"] = "__mcpverdict_mcpverdict"
	r.vars["GITHUB_ACTION_REPOSITORY"] = "mcpverdict/mcpverdict"
	r.checkedOut = true
}

// CheckedOut reports whether Checkout has run.
func (r *Runner) CheckedOut() bool { return r.checkedOut }
