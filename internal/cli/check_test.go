package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

func TestCheckDrivesTheExampleServer(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "check", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "verdict: pass") {
		t.Errorf("report:\n%s", stdout)
	}
	events, err := trace.ReadFile(filepath.Join(out, "session-stdio-2025-11-25.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]bool{}
	for _, ev := range events {
		var m struct{ Method string }
		if ev.Payload != nil && json.Unmarshal(ev.Payload, &m) == nil {
			methods[m.Method] = true
		}
	}
	for _, want := range []string{"initialize", "tools/list", "tools/call", "resources/read", "prompts/get", "completion/complete", "logging/setLevel", "notifications/cancelled", "notifications/progress"} {
		if !methods[want] {
			t.Errorf("the driven session has no %s", want)
		}
	}
	for _, f := range []string{"report.json", "report.txt"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}

func TestCheckRefusesBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"check", "--server", `node "unterminated`}, "is not a command line"},
		{[]string{"check", "--call", "some"}, "unknown --call"},
	}
	for _, tc := range cases {
		code, _, stderr := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
	}
}

func TestSplitCommand(t *testing.T) {
	got, err := splitCommand(`npx -y "@scope/pkg name" 'a b' c\ d`)
	want := []string{"npx", "-y", "@scope/pkg name", "a b", "c d"}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, %v", got, err)
	}
}
