package cli

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/action/actiontest"
)

// buildBinary builds cmd/mcpverdict as the Dockerfile does, but without
// its profile-guided optimization: that changes no behaviour, and would
// compile the standard library a second time on a machine whose cache holds
// only the tests' builds.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpverdict")
	cmd := exec.Command("go", "build", "-trimpath", "-pgo=off", "-o", bin,
		"-ldflags", "-X "+stampFlag+"Version="+testStampVersion+" -X "+stampFlag+"Commit="+testStampCommit, "./cmd/mcpverdict")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// The stamp buildBinary puts on the binary, as the Dockerfile's build
// arguments and the release do.
const (
	stampFlag        = "github.com/mcpverdict/mcpverdict/internal/cli.stamped"
	testStampVersion = "v0.0.0-stamp"
	testStampCommit  = "0123456789abcdef"
)

func TestBuiltBinaryIsStamped(t *testing.T) {
	bin := buildBinary(t)
	for _, arg := range []string{"version", "--version"} {
		out, err := exec.Command(bin, arg).CombinedOutput()
		if want := "mcpverdict " + testStampVersion + " (commit " + testStampCommit + ", go"; err != nil || !strings.HasPrefix(string(out), want) {
			t.Errorf("mcpverdict %s: %v %q, want it to start %q", arg, err, out, want)
		}
	}
}

// runnerBase is this machine's environment without what a runner sets,
// so the simulated runner's values are the only ones.
func runnerBase() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GITHUB_") && !strings.HasPrefix(kv, "INPUT_") && !strings.HasPrefix(kv, "ACTIONS_") && !strings.HasPrefix(kv, reexecEnv) {
			out = append(out, kv)
		}
	}
	return out
}

// actionTimeout bounds one run of the built binary's action, which takes
// seconds: a hang fails the test with what the action wrote, rather than
// the whole package at go test's timeout with nothing to go on.
const actionTimeout = 4 * time.Minute

func runBinaryAction(t *testing.T, bin string, r *actiontest.Runner) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), actionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "action")
	cmd.Dir = r.Workspace
	cmd.Env = r.Environ(runnerBase())
	// A process the action started that outlived it would hold the output
	// pipe open, and CombinedOutput would wait for it as long as it runs;
	// once the action itself has exited, its output is whole.
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s action did not finish in %v:\n%s", bin, actionTimeout, out)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) && !errors.Is(err, exec.ErrWaitDelay) {
		t.Fatalf("running %s action: %v", bin, err)
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

// The built binary, as the container runs it, checks its own example
// server in a simulated runner and uploads to the stand-ins; then it judges
// a violating trace under each fail-on.
func TestActionAsTheBuiltBinary(t *testing.T) {
	bin := buildBinary(t)
	useSharedSchemas(t)
	api := actiontest.NewGitHubAPI(t)
	store := actiontest.NewArtifactService(t)
	r := actiontest.NewRunner(t, false)
	r.UseGitHubAPI(api)
	r.UseArtifactService(store)
	r.SetInput("server", quoteCommand([]string{bin, "example-server"}))
	code, log := runBinaryAction(t, bin, r)
	out := r.Outputs(t)
	checkVerdictGate(t, out["verdict"], "must", code, log)
	checkPublished(t, r, out, log)
	if len(api.Uploads()) != 1 || out["artifact-id"] == "" {
		t.Errorf("uploads %d (rejected %v), artifact %q (rejected %v)\n%s", len(api.Uploads()), api.Rejected(), out["artifact-id"], store.Rejected(), log)
	}

	trace := filepath.Join(r.Workspace, "violation.jsonl")
	data, _ := os.ReadFile(corpusFile("violations/base-request-id-reuse.jsonl"))
	if err := os.WriteFile(trace, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r.SetInput("server", "")
	r.SetInput("traces", "violation.jsonl")
	r.SetInput("artifact", "false")
	for failOn, want := range map[string]int{"must": 1, "should": 1, "never": 0} {
		r.SetInput("fail-on", failOn)
		if code, log := runBinaryAction(t, bin, r); code != want {
			t.Errorf("fail-on %s: exit %d, want %d\n%s", failOn, code, want, log)
		}
	}
}
