package action

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sethvargo/go-githubactions"
)

// Inputs are the action's inputs (action.yml), read from INPUT_* with
// their dashes kept (INPUT_FAIL-ON).
type Inputs struct {
	// Server is a stdio server command line; URL a streamable-HTTP
	// endpoint; Client the user's own client command. Traces, instead,
	// are globs of recorded traces to judge.
	Server, URL, Client string
	Traces              []string
	Revisions           []string
	// Extensions are the extensions counted in the verdict.
	Extensions []string
	Party      string
	Strict     bool
	// FailOn is must, should, never or new.
	FailOn string
	// Baseline is an earlier run's report.json (absolute), or auto: the
	// base branch's newest successful run's; empty: none.
	Baseline        string
	ProbeRejections bool
	// OutputDir is absolute.
	OutputDir string
	// SARIFUpload is auto, true or false; Artifact is auto or false.
	SARIFUpload string
	Artifact    string
	Token       string
	// Contract is the contract lockfile to compare the tools with (absolute;
	// empty: none). Sign is auto, true or false: whether to sign the ledger
	// head keylessly.
	Contract string
	Sign     string
	// Probes are tool-annotation probe definitions (absolute) for check
	// --probe, one per line of the input.
	Probes []string
}

// readInputs reads and checks every input; a bad one is a one-line error.
func readInputs(a *githubactions.Action, workspace string) (*Inputs, error) {
	in := &Inputs{
		Server:     a.GetInput("server"),
		URL:        a.GetInput("url"),
		Client:     a.GetInput("client"),
		Traces:     lines(a.GetInput("traces")),
		Revisions:  list(a.GetInput("revision")),
		Extensions: list(a.GetInput("extension")),
		Party:      a.GetInput("party"),
		Token:      a.GetInput("token"),
	}
	var err error
	if in.Strict, err = boolInput(a, "strict", false); err != nil {
		return nil, err
	}
	if in.ProbeRejections, err = boolInput(a, "probe-rejections", false); err != nil {
		return nil, err
	}
	if in.FailOn, err = choice(a, "fail-on", "must", "must", "should", "never", "new"); err != nil {
		return nil, err
	}
	if in.SARIFUpload, err = choice(a, "sarif-upload", "auto", "auto", "true", "false"); err != nil {
		return nil, err
	}
	if in.Artifact, err = choice(a, "artifact", "auto", "auto", "true", "false"); err != nil {
		return nil, err
	}
	if in.Sign, err = choice(a, "sign", "auto", "auto", "true", "false"); err != nil {
		return nil, err
	}
	switch b := a.GetInput("baseline"); {
	case strings.EqualFold(b, baselineAuto):
		in.Baseline = baselineAuto
	case b != "":
		in.Baseline = inWorkspace(b, workspace)
	}
	if c := a.GetInput("contract"); c != "" {
		in.Contract = inWorkspace(c, workspace)
	}
	for _, p := range lines(a.GetInput("probe")) {
		in.Probes = append(in.Probes, inWorkspace(p, workspace))
	}
	in.OutputDir = outputDir(a.GetInput("output-dir"), workspace)
	return in, in.check()
}

// check refuses inputs that name nothing to check, or two things.
func (in *Inputs) check() error {
	given := 0
	for _, v := range []string{in.Server, in.URL, strings.Join(in.Traces, "")} {
		if v != "" {
			given++
		}
	}
	switch {
	case given == 0 && in.Client == "":
		return fmt.Errorf("nothing to check: set the input server (a stdio command), url (an HTTP endpoint) or traces (a glob of recorded traces)")
	case given > 1:
		return fmt.Errorf("inputs server, url and traces each name what to check: set one of them")
	case len(in.Traces) > 0 && (in.Client != "" || in.ProbeRejections || len(in.Probes) > 0):
		return fmt.Errorf("traces are judged as recorded: the inputs client, probe-rejections and probe need server, url or client")
	case in.Party != "" && in.Party != "server" && in.Party != "client":
		return fmt.Errorf(`input party is %q: use "server", "client" or leave it empty`, in.Party)
	}
	return nil
}

// list splits an input holding several values, one per line or separated
// by commas.
func list(v string) []string {
	return split(v, func(r rune) bool { return r == '\n' || r == ',' })
}

// lines splits an input holding one value per line (globs may hold
// commas: {a,b}).
func lines(v string) []string {
	return split(v, func(r rune) bool { return r == '\n' })
}

func split(v string, sep func(rune) bool) []string {
	var out []string
	for _, f := range strings.FieldsFunc(v, sep) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func boolInput(a *githubactions.Action, name string, def bool) (bool, error) {
	switch strings.ToLower(a.GetInput(name)) {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("input %s is %q: use true or false", name, a.GetInput(name))
}

func choice(a *githubactions.Action, name, def string, allowed ...string) (string, error) {
	v := strings.ToLower(a.GetInput(name))
	if v == "" {
		return def, nil
	}
	for _, ok := range allowed {
		if v == ok {
			return v, nil
		}
	}
	return "", fmt.Errorf("input %s is %q: use %s", name, a.GetInput(name), strings.Join(allowed, ", "))
}

// outputDir resolves the output directory against the workspace.
func outputDir(v, workspace string) string {
	if v == "" {
		v = "mcpverdict-out"
	}
	return inWorkspace(v, workspace)
}

// inWorkspace resolves a path input against the workspace, where the
// action's working directory is.
func inWorkspace(v, workspace string) string {
	if filepath.IsAbs(v) {
		return filepath.Clean(v)
	}
	return filepath.Join(workspace, v)
}
