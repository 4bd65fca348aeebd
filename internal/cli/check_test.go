package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/exampleserver"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

func TestCheckDrivesTheExampleServerInBothRevisions(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "check", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "verdict: pass") {
		t.Errorf("report:\n%s", stdout)
	}
	legacy := traceMethods(t, filepath.Join(out, "session-stdio-2025-11-25.jsonl"))
	for _, want := range []string{"initialize", "ping", "tools/list", "tools/call", "resources/read", "resources/subscribe", "prompts/get", "completion/complete", "logging/setLevel", "notifications/cancelled", "notifications/progress"} {
		if !legacy[want] {
			t.Errorf("the 2025-11-25 session has no %s", want)
		}
	}
	modern := traceMethods(t, filepath.Join(out, "session-stdio-2026-07-28.jsonl"))
	for _, want := range []string{"server/discover", "tools/call", "resources/read", "prompts/get", "subscriptions/listen", "notifications/subscriptions/acknowledged", "notifications/cancelled"} {
		if !modern[want] {
			t.Errorf("the 2026-07-28 session has no %s", want)
		}
	}
	if modern["initialize"] || modern["ping"] {
		t.Error("the stateless session used initialize or ping")
	}
	for _, f := range []string{"report.json", "report.txt", "report.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}

func traceMethods(t *testing.T, path string) map[string]bool {
	t.Helper()
	events, err := trace.ReadFile(path)
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
	return methods
}

// exampleHTTP serves the example server over streamable HTTP for the test.
func exampleHTTP(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		exampleserver.ServeHTTP(ctx, "127.0.0.1:0", func(url string) { urls <- url })
	}()
	t.Cleanup(func() { cancel(); <-done })
	return <-urls
}

func TestCheckOverHTTP(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "check", "--url", exampleHTTP(t), "--out", out)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, name := range []string{"session-http-2025-11-25.jsonl", "session-http-2026-07-28.jsonl"} {
		if m := traceMethods(t, filepath.Join(out, name)); !m["tools/call"] {
			t.Errorf("%s has no tools/call", name)
		}
	}
}

func TestCheckWithTheUsersClient(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	t.Setenv(clientEnv, "0")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	client := "env " + clientEnv + "=1 " + exe
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "check", "--client", client, "--out", out)
	if code != 0 {
		t.Fatalf("stdio: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if m := traceMethods(t, filepath.Join(out, "session-client-stdio.jsonl")); !m["initialize"] {
		t.Error("the client's stdio session was not recorded")
	}
	code, stdout, stderr = runCLI(t, "check", "--client", client, "--url", exampleHTTP(t), "--out", out)
	if code != 0 && code != 1 {
		t.Fatalf("http: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if m := traceMethods(t, filepath.Join(out, "session-client-http.jsonl")); !m["initialize"] {
		t.Error("the client's HTTP session was not recorded")
	}
}

func TestCheckProbesRejections(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "check", "--probe-rejections", "--revision", "2025-11-25", "--out", out)
	if code == 2 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, probe := range []string{"before-initialize", "unknown-method", "invalid-params", "reused-id", "malformed-json", "batch"} {
		path := filepath.Join(out, "probe-"+probe+"-stdio-2025-11-25.jsonl")
		if _, err := os.Stat(path); err != nil {
			t.Errorf("probe %s: %v", probe, err)
		}
		if !strings.Contains(stdout, path) {
			t.Errorf("probe %s was not judged", probe)
		}
	}
}

func TestCheckBadServers(t *testing.T) {
	cases := []struct {
		name   string
		server string
		codes  []int
		want   string
	}{
		{"does not start", "/nonexistent/mcp-server", []int{2}, `could not be started`},
		{"exits at once", "sh -c 'exit 3'", []int{2}, "exited with status 3"},
		{"prints non-JSON", "sh -c 'echo hello; sleep 3'", []int{1, 2}, `not JSON-RPC ("hello")`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			code, stdout, stderr := runCLI(t, "check", "--server", tc.server, "--revision", "2025-11-25", "--step-timeout", "500ms", "--out", out)
			if !containsInt(tc.codes, code) || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %v and %q", code, stderr, tc.codes, tc.want)
			}
			// What a server that was never driven left is judged, but it
			// has passed nothing.
			if strings.Contains(stdout, "verdict: pass") {
				t.Errorf("a server that could not be driven got a passing verdict:\n%s", stdout)
			}
			if _, err := os.Stat(filepath.Join(out, "session-stdio-2025-11-25.jsonl")); err != nil {
				t.Errorf("the trace was not written: %v", err)
			}
		})
	}
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func TestCheckURLNothingListens(t *testing.T) {
	start := time.Now()
	code, _, stderr := runCLI(t, "check", "--url", "http://127.0.0.1:1/mcp", "--out", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "127.0.0.1:1") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestCheckRefusesBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"check", "--server", `node "unterminated`}, "is not a command line"},
		{[]string{"check", "--call", "some"}, "unknown --call"},
		{[]string{"check", "--server", "x", "--url", "http://127.0.0.1:9/mcp"}, "give one"},
		{[]string{"check", "--url", "ftp://example.com"}, "is not an http"},
		{[]string{"check", "--revision", "1999-01-01"}, "unknown --revision"},
		{[]string{"check", "--step-timeout", "0s"}, "not a positive duration"},
		{[]string{"check", "--client", `"unterminated`}, "is not a command line"},
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

func TestShellJoinRoundTrips(t *testing.T) {
	words := []string{"/bin/mcp verdict", "it's", "plain", ""}
	got, err := splitCommand(shellJoin(words))
	if err != nil || strings.Join(got, "|") != strings.Join(words, "|") {
		t.Errorf("shellJoin(%q) = %q, split back to %q (%v)", words, shellJoin(words), got, err)
	}
}

// A 2025-06-18 session is driven and judged under 2025-06-18 as a whole:
// its clauses are judged, not reported as an unknown revision.
func TestCheckDrivesA2025_06_18Session(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "check", "--revision", "2025-06-18", "--out", out)
	if code != 0 || !strings.Contains(stdout, "verdict: pass") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	var rep struct {
		Runs []struct {
			Revision string
			Totals   struct{ Pass, Fail int }
		}
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	runs := rep.Runs
	if len(runs) != 1 || runs[0].Revision != "2025-06-18" || runs[0].Totals.Pass < 40 || runs[0].Totals.Fail != 0 {
		t.Errorf("report runs: %+v\n%s", runs, data[:min(len(data), 400)])
	}
	if methods := traceMethods(t, filepath.Join(out, "session-stdio-2025-06-18.jsonl")); !methods["initialize"] || !methods["tools/call"] {
		t.Errorf("the 2025-06-18 session did not initialize and call tools: %v", methods)
	}
}
