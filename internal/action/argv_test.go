package action

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"
)

func TestInputsMapOntoCheck(t *testing.T) {
	in := &Inputs{URL: "http://127.0.0.1:3000/mcp", Client: "node client.js", ProbeRejections: true,
		Revisions: []string{"2025-11-25", "2026-07-28"}, Extensions: []string{"tasks"}, Party: "server", Strict: true, OutputDir: "/ws/out",
		Probes: []string{"/ws/a.toml", "/ws/b.toml"}}
	got := strings.Join(commandLine(in, nil, ""), " ")
	for _, want := range []string{
		"check --out /ws/out --url http://127.0.0.1:3000/mcp --client node client.js --probe-rejections --probe /ws/a.toml --probe /ws/b.toml",
		"--revision 2025-11-25 --revision 2026-07-28 --extension tasks --party server --strict",
		"--sarif /ws/out/mcpverdict.sarif", "--junit /ws/out/junit.xml", "--markdown /ws/out/summary.md",
		"--github /ws/out/annotations.txt", "--json /ws/out/report.json",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("command line lacks %q:\n%s", want, got)
		}
	}
}

func TestTracesMapOntoValidate(t *testing.T) {
	in := &Inputs{Traces: []string{"t/*.jsonl"}, OutputDir: "/ws/out"}
	args := commandLine(in, []string{"/ws/t/a.jsonl", "/ws/t/-b.jsonl"}, "")
	if args[0] != "validate" || strings.Contains(strings.Join(args, " "), "--out") {
		t.Fatalf("args %v", args)
	}
	// Trace paths come after "--", so one named like a flag stays a path.
	if tail := args[len(args)-3:]; tail[0] != "--" || tail[2] != "/ws/t/-b.jsonl" {
		t.Errorf("tail %v", tail)
	}
}

func TestExpandTraces(t *testing.T) {
	ws := t.TempDir()
	for _, p := range []string{"rec/a.jsonl", "rec/deep/b.jsonl", "rec/c.txt"} {
		full := filepath.Join(ws, p)
		_ = os.MkdirAll(filepath.Dir(full), 0o755)
		_ = os.WriteFile(full, []byte("{}"), 0o644)
	}
	got, err := expandTraces(ws, []string{"rec/**/*.jsonl", "rec/a.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != filepath.Join(ws, "rec/a.jsonl") || got[1] != filepath.Join(ws, "rec/deep/b.jsonl") {
		t.Errorf("got %v", got)
	}
	if _, err := expandTraces(ws, []string{"rec/*.json"}); err == nil || !strings.Contains(err.Error(), `"rec/*.json"`) {
		t.Errorf("a glob matching nothing: %v", err)
	}
	if _, err := expandTraces(ws, []string{"rec/[.jsonl"}); err == nil {
		t.Error("a malformed glob was accepted")
	}
}

func TestInputListsAndDefaults(t *testing.T) {
	env := map[string]string{"INPUT_SERVER": "x", "INPUT_REVISION": "2025-11-25, 2026-07-28\n", "INPUT_OUTPUT-DIR": "/abs/out", "INPUT_PROBE": "mcp/probe.toml\n /abs/x.toml "}
	a := githubactions.New(githubactions.WithGetenv(func(k string) string { return env[k] }))
	in, err := readInputs(a, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Revisions) != 2 || in.FailOn != "must" || in.SARIFUpload != "auto" || in.Artifact != "auto" || in.OutputDir != "/abs/out" {
		t.Errorf("inputs %+v", in)
	}
	if strings.Join(in.Probes, " ") != "/ws/mcp/probe.toml /abs/x.toml" {
		t.Errorf("probe definitions %q: one per line, resolved against the workspace", in.Probes)
	}
	if got := outputDir("", "/ws"); got != "/ws/mcpverdict-out" {
		t.Errorf("default output dir %q", got)
	}
	if got := lines("a/{b,c}/*.jsonl\n d.jsonl "); len(got) != 2 || got[0] != "a/{b,c}/*.jsonl" {
		t.Errorf("trace globs keep their commas: %q", got)
	}
}

func TestForkDetection(t *testing.T) {
	pr := func(head any) map[string]any {
		return map[string]any{"pull_request": map[string]any{"head": map[string]any{"repo": head}}}
	}
	cases := []struct {
		event map[string]any
		fork  bool
	}{
		{map[string]any{}, false}, // a push
		{pr(map[string]any{"full_name": "octo/repo", "fork": true}), false},
		{pr(map[string]any{"full_name": "someone/repo", "fork": true}), true},
		{pr(nil), true}, // the fork was deleted
	}
	for i, tc := range cases {
		gh := &githubactions.GitHubContext{Repository: "octo/repo", Event: tc.event}
		if got := fromFork(gh); got != tc.fork {
			t.Errorf("case %d: fromFork = %v", i, got)
		}
	}
}

func TestRuntimeTokenScope(t *testing.T) {
	for _, bad := range []string{"", "a.b", "a.!!!.c", "a.e30.c" /* {} */} {
		if _, err := tokenBackendIDs(bad); err == nil {
			t.Errorf("token %q accepted", bad)
		}
	}
}

func TestArtifactNames(t *testing.T) {
	category := sarifCategory([]byte(`{"runs":[{"automationDetails":{"id":"mcpverdict/example-servers-everything/"}}]}`))
	if got := artifactName("mcp", 1, category); got != "mcpverdict-mcp-example-servers-everything" {
		t.Errorf("name %q", got)
	}
	if got := artifactName("mcp", 2, category); !strings.HasSuffix(got, "-attempt-2") {
		t.Errorf("re-run name %q", got)
	}
	if got := sarifCategory([]byte("not json")); got != "mcpverdict/" {
		t.Errorf("category of nothing: %q", got)
	}
}
