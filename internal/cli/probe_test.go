package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func probeFixture(name string) string {
	return filepath.Join("..", "..", "corpus", "probe", "fixtures", name, "probe.toml")
}

// asMcpverdict makes the test binary serve the probe's {self} commands
// (fixture servers, the sandbox) without the race detector's one-second
// pause at every exit.
func asMcpverdict(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	t.Setenv("GORACE", "atexit_sleep_ms=0")
}

func TestProbeRunCatchesTheRacingTool(t *testing.T) {
	asMcpverdict(t)
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "probe", "run", probeFixture("check-then-insert"), "--concurrent-attempts", "1", "--out", out,
		"--sarif", filepath.Join(out, "probe.sarif"), "--junit", filepath.Join(out, "probe.junit.xml"))
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a violation)\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"VIOLATION:CONCURRENT_DIVERGED", "expectations: 5/5 matched", "reset: verified"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "run1-control") {
		t.Errorf("no progress on stderr: %q", stderr)
	}
	var rep struct {
		Tools []struct{ Tool string } `json:"tools"`
	}
	data, err := os.ReadFile(filepath.Join(out, "probe-report.json"))
	if err != nil || json.Unmarshal(data, &rep) != nil || len(rep.Tools) != 1 {
		t.Errorf("probe-report.json: %v %s", err, data)
	}
	sarif, _ := os.ReadFile(filepath.Join(out, "probe.sarif"))
	junit, _ := os.ReadFile(filepath.Join(out, "probe.junit.xml"))
	if !strings.Contains(string(sarif), `"ruleId": "probe/concurrent_idempotence"`) || !strings.Contains(string(junit), `register_user concurrent_idempotence`) {
		t.Errorf("the SARIF or JUnit file lacks the violation:\n%.400s\n%.400s", sarif, junit)
	}
	traces, _ := filepath.Glob(filepath.Join(out, "probe-sessions", "*.jsonl"))
	if len(traces) < 10 {
		t.Errorf("%d session traces kept, want every session's", len(traces))
	}
}

// definitionWithSeed writes a definition and its seed.sql into one folder.
func definitionWithSeed(t *testing.T, name, body, seed string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "seed.sql"), []byte(seed), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// maskMatchingNothing is a definition whose mask names a field no seeded
// record has.
func maskMatchingNothing(t *testing.T) string {
	return definitionWithSeed(t, "mask.toml", "[server]\ncommand = [\"x\"]\n[[adapters]]\nkind = \"sqlite\"\npath = \"db\"\nseed = \"seed.sql\"\n"+
		"append_only = [\"audit\"]\nmasks = [{ region = \"audit\", field = \"when\", kind = \"timestamp\" }]\n[[tools]]\nname = \"x\"\n",
		"CREATE TABLE audit (id INTEGER PRIMARY KEY, at TEXT);\nINSERT INTO audit VALUES (1, '2026-01-01T00:00:00Z');\n")
}

// TestProbeRefusesBadInput holds every refusal to exit status 2 and one
// line naming the file and key, with no report.
func TestProbeRefusesBadInput(t *testing.T) {
	asMcpverdict(t)
	bad := func(name, body string) string { return writeTemp(t, name, body) }
	out := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"probe", "run", bad("typo.toml", "[server]\ncomand = [\"x\"]\n")}, "typo.toml: server.comand: unknown key"},
		{[]string{"probe", "run", bad("todo.toml", "[server]\ncommand = [\"TODO(mcpverdict): the command\"]\n")}, "todo.toml: server.command[0]: still holds a TODO("},
		{[]string{"probe", "run", maskMatchingNothing(t)}, `mask.toml: adapters[0].masks[0]: no seeded record of region "audit" has field "when"`},
		{[]string{"probe", "run", bad("noserver.toml", "[server]\ncommand = [\"/nonexistent/mcp-server\"]\n[[tools]]\nname = \"x\"\n"), "--out", out}, "noserver.toml: server.command: the server did not start"},
		{[]string{"probe", "run", probeFixture("honest-readonly"), "--runs", "2"}, "--runs 2 is below the minimum of 3"},
		{[]string{"probe", "run", probeFixture("honest-readonly"), "--tool", "nope"}, `--tool "nope" names no tool`},
		{[]string{"probe", "verify-reset", bad("seed.toml", "[server]\ncommand = [\"x\"]\n[[adapters]]\nkind = \"sqlite\"\npath = \"db\"\nseed = \"missing.sql\"\n[[tools]]\nname = \"x\"\n")}, "seed.toml: adapters[0].seed: the seed does not load"},
	}
	for _, tc := range cases {
		code, stdout, stderr := runCLI(t, tc.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		last := lines[len(lines)-1]
		if code != 2 || !strings.HasPrefix(last, "mcpverdict: ") || !strings.Contains(last, tc.want) {
			t.Errorf("%v: exit %d, last stderr line %q, want exit 2 and %q", tc.args, code, last, tc.want)
		}
		if stdout != "" {
			t.Errorf("%v: a report was written: %q", tc.args, stdout)
		}
	}
}

func TestProbeInitWritesPlaceholdersThatRefuseToRun(t *testing.T) {
	asMcpverdict(t)
	def := filepath.Join(t.TempDir(), "probe.toml")
	code, _, stderr := runCLI(t, "probe", "init", "-o", def)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	text, err := os.ReadFile(def)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`name = "echo"`, `name = "remember"`, "TODO(mcpverdict)", "# declared: readOnlyHint true"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the skeleton lacks %q:\n%s", want, text)
		}
	}
	code, _, stderr = runCLI(t, "probe", "run", def)
	if code != 2 || !strings.Contains(stderr, "still holds a TODO(") {
		t.Errorf("running the skeleton: exit %d, %q", code, stderr)
	}
	if code, _, _ := runCLI(t, "probe", "init", "-o", def); code != 2 {
		t.Errorf("init over an existing file: exit %d, want 2", code)
	}
}

func TestProbeVerifyReset(t *testing.T) {
	if code, stdout, stderr := runCLI(t, "probe", "verify-reset", probeFixture("honest-readonly")); code != 0 || !strings.Contains(stdout, "reset verified") {
		t.Errorf("honest-readonly: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, _ := runCLI(t, "probe", "verify-reset", probeFixture("unreliable-reset")); code != 1 || !strings.Contains(stdout, "UNVERIFIED") {
		t.Errorf("unreliable-reset: exit %d\n%s", code, stdout)
	}
}

func TestProbeSchemaIsJSON(t *testing.T) {
	code, stdout, _ := runCLI(t, "probe", "schema")
	var v map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &v) != nil || v["$id"] == nil {
		t.Errorf("exit %d: %.200s", code, stdout)
	}
}

// The default --out is relative, and the sessions' servers run in their
// state folders: what the probe hands them must still name the folder the
// user meant.
func TestProbeRunWithTheDefaultOutFolder(t *testing.T) {
	asMcpverdict(t)
	def, err := filepath.Abs(probeFixture("honest-readonly"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	code, stdout, stderr := runCLI(t, "probe", "run", def, "--concurrent-attempts", "1")
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "expectations: 10/10 matched") {
		t.Errorf("the report lacks the fixture's expectations:\n%s", stdout)
	}
	data, err := os.ReadFile(filepath.Join("mcpverdict-out", "probe-report.json"))
	if err != nil {
		t.Fatalf("no report in the default folder: %v", err)
	}
	var rep struct {
		Provenance struct {
			Harness    string
			Server     struct{ Name, Version string }
			Toolchains map[string]string
			Initialize json.RawMessage
			ToolsList  []json.RawMessage `json:"tools_list"`
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	p := rep.Provenance
	if !strings.HasPrefix(p.Harness, "mcpverdict ") || p.Server.Name == "" || p.Toolchains["go"] == "" || len(p.Initialize) == 0 || len(p.ToolsList) == 0 {
		t.Errorf("the report's provenance is short of the build, the server, the toolchains or what the server said: %+v", p)
	}
	if !strings.Contains(stdout, "  server: "+p.Server.Name+" ") || !strings.Contains(stdout, "  harness: mcpverdict ") {
		t.Errorf("the text report does not name the server and the harness:\n%s", stdout)
	}
}

// The case end to end: from the seed, init identifies the graph's
// entities by name, so a tool that appends to an entity's observations
// passes its destructiveHint: false instead of reading as a removal. Once
// its remaining placeholders are filled in, the definition loads and runs.
func TestProbeInitFromASeedJudgesAnAppendAsAdditive(t *testing.T) {
	asMcpverdict(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	def := filepath.Join(t.TempDir(), "probe.toml")
	seed := filepath.Join("..", "..", "corpus", "probe", "fixtures", "update-appends-element", "graph.ndjson")
	code, _, stderr := runCLI(t, "probe", "init", "--server", `"`+exe+`" probe fixture-server update-appends-element`, "--seed", seed, "-o", def)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(def)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"kind = \"jsonl\"\n", "region = \"type\"\n", "key = [\"name\"]\n", "the seed has entity, relation", `name = "add_observation"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the definition lacks %q:\n%s", want, text)
		}
	}
	if code, _, stderr := runCLI(t, "probe", "verify-reset", def); code != 2 || !strings.Contains(stderr, "still holds a TODO(") {
		t.Errorf("the unfilled definition: exit %d, %q", code, stderr)
	}
	var filled []string
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "path = "):
			line = `path = "graph.jsonl"`
		case strings.HasPrefix(line, "business = "):
			line = `business = ["entity", "relation"]`
		case line == "arguments = {}":
			line = `arguments = { name = "Alice", text = "runs marathons" }`
		}
		filled = append(filled, line)
	}
	if err := os.WriteFile(def, []byte(strings.Join(filled, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "probe", "run", def, "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "reset: verified") {
		t.Errorf("the reset was not verified:\n%s", stdout)
	}
	judged := false
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) >= 4 && f[0] == "add_observation" && f[1] == "destructive" {
			judged = true
			if f[3] != "PASS:CLAIM_HELD" {
				t.Errorf("destructive: %q, want PASS:CLAIM_HELD", line)
			}
		}
	}
	if !judged {
		t.Errorf("the report has no destructive verdict:\n%s", stdout)
	}
}
