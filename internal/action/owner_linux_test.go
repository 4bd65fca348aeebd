package action

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// ownerHelperEnv makes the test binary the helper process: a process that
// becomes the workspace's owner must be one of its own, as the change is
// for good.
const ownerHelperEnv = "MCPVERDICT_TEST_OWNER_HELPER"

func TestMain(m *testing.M) {
	if ws := os.Getenv(ownerHelperEnv); ws != "" {
		os.Exit(ownerHelper(ws))
	}
	os.Exit(m.Run())
}

// ownerHelper becomes the owner of ws, then writes a folder and a file as
// the action would, and runs a child as the server under test would be.
func ownerHelper(ws string) int {
	note, err := becomeWorkspaceOwner(ws)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println(note)
	dir := filepath.Join(ws, "mcpverdict-out", "sessions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := os.WriteFile(filepath.Join(dir, "trace.jsonl"), []byte("{}\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	out, err := exec.Command("id", "-u").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Printf("child uid %s", out)
	return 0
}

func runOwnerHelper(t *testing.T, ws string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), ownerHelperEnv+"="+ws)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	return string(out)
}

// Run as root, as GitHub runs a docker action, in a workspace that belongs
// to the runner's user: everything written belongs to that user and the
// child does not run as root. In a root-owned workspace nothing changes
// and the log says why.
func TestBecomeWorkspaceOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, as the action's container runs")
	}
	for _, uid := range []int{1001, 4242} {
		t.Run(fmt.Sprint(uid), func(t *testing.T) {
			// Not t.TempDir: its folders are root's alone.
			ws, err := os.MkdirTemp("", "mcpverdict-workspace-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(ws) })
			if err := os.Chown(ws, uid, uid+1); err != nil {
				t.Fatal(err)
			}
			out := runOwnerHelper(t, ws)
			if want := fmt.Sprintf("child uid %d\n", uid); !strings.Contains(out, want) {
				t.Errorf("the child is not the owner: %q", out)
			}
			err = filepath.Walk(filepath.Join(ws, "mcpverdict-out"), func(p string, info os.FileInfo, err error) error {
				if err != nil {
					return err
				}
				st := info.Sys().(*syscall.Stat_t)
				if int(st.Uid) != uid || int(st.Gid) != uid+1 {
					t.Errorf("%s belongs to %d:%d, want %d:%d", p, st.Uid, st.Gid, uid, uid+1)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("root", func(t *testing.T) {
		out := runOwnerHelper(t, t.TempDir())
		if !strings.Contains(out, "belongs to root") || !strings.Contains(out, "child uid 0\n") {
			t.Errorf("a root workspace: %q", out)
		}
	})
}

// What the action reads stays readable to it; the programs it starts do
// not inherit the token input or the runner's credentials.
func TestWithholdRunnerSecrets(t *testing.T) {
	t.Setenv("INPUT_TOKEN", "ghs_secret")
	t.Setenv("ACTIONS_RUNTIME_TOKEN", "runtime")
	t.Setenv("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "oidc")
	t.Setenv("GITHUB_WORKSPACE", "/github/workspace")
	getenv := WithholdRunnerSecrets()
	if getenv("INPUT_TOKEN") != "ghs_secret" || getenv("ACTIONS_ID_TOKEN_REQUEST_TOKEN") != "oidc" || getenv("GITHUB_WORKSPACE") != "/github/workspace" {
		t.Error("the action lost a variable it reads")
	}
	out, err := exec.Command("env").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "INPUT_") || strings.HasPrefix(line, "ACTIONS_") {
			t.Errorf("a child inherits %s", line)
		}
	}
	if !strings.Contains(string(out), "GITHUB_WORKSPACE=/github/workspace") {
		t.Error("a child lost GITHUB_WORKSPACE")
	}
}
