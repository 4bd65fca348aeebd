package image

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcpverdict/mcpverdict/internal/action/actiontest"
)

// The runner's names for the file commands it mounts: a fresh suffix per
// step, as GitHub gives.
const fileCommandSuffix = "_8c1d4a7e-3f0b-4c62-9a55-0d2e6b9f1a37"

// step is one workflow step running the action's container, laid out as
// the runner lays it out on the host: the workspace, _github_home,
// _github_workflow (the event) and _runner_file_commands, each owned by the
// runner's user.
type step struct {
	t        *testing.T
	root     string
	uid, gid int
	inputs   map[string]string
	env      map[string]string
	svc      *services // the stand-ins, when the step has them
	// wireMayFail: the server or traces under test send messages their
	// revision's schema refuses.
	wireMayFail bool
}

// newStep lays out a step for a runner whose user is uid:gid.
func newStep(t *testing.T, uid, gid int) *step {
	t.Helper()
	// Not t.TempDir: its folders are root's alone and the runner's user
	// must reach the workspace.
	root, err := os.MkdirTemp("", "mcpverdict-step-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	s := &step{t: t, root: root, uid: uid, gid: gid, inputs: map[string]string{}, env: map[string]string{}}
	for _, d := range []string{"workspace", "_github_home", "_github_workflow", "_runner_file_commands"} {
		s.mkdir(filepath.Join(root, d))
	}
	for _, f := range []string{"set_output", "step_summary", "set_env", "add_path", "save_state"} {
		s.writeFile(filepath.Join(root, "_runner_file_commands", f+fileCommandSuffix), "")
	}
	event, _ := json.Marshal(map[string]any{
		"action": "synchronize", "number": 7,
		"pull_request": map[string]any{
			"number": 7,
			"head":   map[string]any{"sha": "0123456789abcdef0123456789abcdef01234567", "repo": map[string]any{"full_name": actiontest.Repository, "fork": false}},
			"base":   map[string]any{"repo": map[string]any{"full_name": actiontest.Repository}},
		},
		"repository": map[string]any{"full_name": actiontest.Repository},
	})
	s.writeFile(filepath.Join(root, "_github_workflow", "event.json"), string(event))
	return s
}

func (s *step) mkdir(path string) {
	s.t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		s.t.Fatal(err)
	}
	s.chown(path)
}

// writeFile writes a file of the runner's user.
func (s *step) writeFile(path, text string) {
	s.t.Helper()
	s.mkdir(filepath.Dir(path))
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.chown(path)
}

func (s *step) chown(path string) {
	s.t.Helper()
	if err := os.Lchown(path, s.uid, s.gid); err != nil {
		s.t.Fatal(err)
	}
}

// giveToRunner makes everything under the workspace the runner's user's,
// as a checkout or an earlier step would leave it.
func (s *step) giveToRunner() {
	s.t.Helper()
	err := filepath.Walk(s.workspace(), func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, s.uid, s.gid)
	})
	if err != nil {
		s.t.Fatal(err)
	}
}

func (s *step) workspace() string { return filepath.Join(s.root, "workspace") }
func (s *step) inWorkspace(rel string) string {
	return filepath.Join(s.workspace(), filepath.FromSlash(rel))
}
func (s *step) fileCommand(name string) string {
	return filepath.Join(s.root, "_runner_file_commands", name+fileCommandSuffix)
}

// result is what the step left: its exit status, its log (stdout and
// stderr, as the runner reads workflow commands from both), the outputs as
// the runner parses them, the job summary and how long it ran.
type result struct {
	code    int
	log     string
	outputs map[string]string
	summary string
	wall    time.Duration
}

// run runs image as the runner runs a docker action's container.
func (s *step) run(image string) result {
	s.t.Helper()
	vars := s.variables()
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	name := fmt.Sprintf("mcpverdict-step-%d", time.Now().UnixNano())
	args := []string{"run", "--name", name, "--label", "mcpverdict-test", "--workdir", "/github/workspace", "--rm"}
	env := os.Environ()
	for _, k := range names {
		// The runner passes names only; the values come from its own
		// environment, so any bytes survive.
		args = append(args, "-e", k)
		env = append(env, k+"="+vars[k])
	}
	args = append(args,
		// The runner puts the container on a network of its own; the
		// stand-ins here listen on the host's loopback.
		"--network", "host",
		"-v", dockerSocket()+":/var/run/docker.sock",
		"-v", filepath.Join(s.root, "_github_home")+":/github/home",
		"-v", filepath.Join(s.root, "_github_workflow")+":/github/workflow",
		"-v", filepath.Join(s.root, "_runner_file_commands")+":/github/file_commands",
		"-v", s.workspace()+":/github/workspace",
		image, "action")
	cmd := exec.Command(dockerClient(), args...)
	cmd.Env = env
	start := time.Now()
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		docker("rm", "-f", name)
		<-done
		s.t.Fatalf("the step ran for 5 minutes and was stopped; its log:\n%s", lastLines(string(out), 40))
	}
	r := result{log: string(out), wall: time.Since(start), code: exitCode(err)}
	if r.code < 0 {
		s.t.Fatalf("docker run: %v\n%s", err, out)
	}
	r.outputs = s.outputs()
	r.summary = s.readFile(s.fileCommand("step_summary"))
	return r
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

func dockerSocket() string {
	return strings.TrimPrefix(os.Getenv("DOCKER_HOST"), "unix://")
}

// variables are the environment the runner gives the container: every
// input action.yml declares, with its default unless the step sets it, the
// GITHUB_* context with the container's paths, and the step's env.
func (s *step) variables() map[string]string {
	s.t.Helper()
	fc := func(name string) string { return "/github/file_commands/" + name + fileCommandSuffix }
	vars := map[string]string{
		"HOME": "/github/home", "CI": "true", "GITHUB_ACTIONS": "true",
		"GITHUB_WORKSPACE": "/github/workspace", "GITHUB_EVENT_PATH": "/github/workflow/event.json",
		"GITHUB_OUTPUT": fc("set_output"), "GITHUB_STEP_SUMMARY": fc("step_summary"),
		"GITHUB_ENV": fc("set_env"), "GITHUB_PATH": fc("add_path"), "GITHUB_STATE": fc("save_state"),
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REPOSITORY": actiontest.Repository,
		"GITHUB_REPOSITORY_OWNER": "octo-org", "GITHUB_SHA": "fedcba9876543210fedcba9876543210fedcba98",
		"GITHUB_REF": "refs/pull/7/merge", "GITHUB_HEAD_REF": "feature", "GITHUB_BASE_REF": "main",
		"GITHUB_JOB": "mcp", "GITHUB_RUN_ID": "1234", "GITHUB_RUN_NUMBER": "5", "GITHUB_RUN_ATTEMPT": "1",
		"GITHUB_ACTOR": "octocat", "GITHUB_WORKFLOW": "mcp",
		"GITHUB_WORKFLOW_REF": actiontest.Repository + "/.github/workflows/mcp.yml@refs/pull/7/merge",
		"GITHUB_SERVER_URL":   "https://github.com", "GITHUB_API_URL": "http://127.0.0.1:9",
		"GITHUB_ACTION": "mcpverdict", "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
		"RUNNER_TEMP": "/home/runner/work/_temp", "RUNNER_TOOL_CACHE": "/opt/hostedtoolcache",
	}
	for name, in := range declaredInputs(s.t) {
		value, set := s.inputs[name]
		if !set {
			value = in
		}
		vars["INPUT_"+strings.ToUpper(name)] = value
	}
	for k, v := range s.env {
		vars[k] = v
	}
	return vars
}

// declaredInputs reads action.yml's inputs and their defaults, with the
// expression ${{ github.token }} as the runner would expand it.
func declaredInputs(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Inputs map[string]struct{ Default string } `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(data, &meta); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	out := map[string]string{}
	for name, in := range meta.Inputs {
		out[name] = strings.ReplaceAll(in.Default, "${{ github.token }}", actiontest.Token)
	}
	return out
}

func (s *step) outputs() map[string]string {
	s.t.Helper()
	out, err := actiontest.ParseFileCommands(s.readFile(s.fileCommand("set_output")))
	if err != nil {
		s.t.Fatalf("the outputs file: %v", err)
	}
	return out
}

func (s *step) readFile(path string) string {
	s.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(data)
}
