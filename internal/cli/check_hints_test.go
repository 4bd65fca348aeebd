package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/evidence"
	"github.com/mcpverdict/mcpverdict/internal/probe"
)

// liarRepository is a repository whose source declares the read-only
// liar's tool: the fixture's own server (Go, official SDK) copied out of
// the fixtures folder, which tool search leaves out. It returns the root
// and the line that declares get_item.
func liarRepository(t *testing.T) (root string, line int) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "corpus", "probe", "fixtures", "readonly-liar", "server.go"))
	if err != nil {
		t.Fatal(err)
	}
	root = t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "server"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "server", "main.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	return root, declaringLine(t, src, "get_item")
}

// declaringLine is the first line of src that holds tool as a string
// literal.
func declaringLine(t *testing.T, src []byte, tool string) int {
	t.Helper()
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, `"`+tool+`"`) {
			return i + 1
		}
	}
	t.Fatalf("the source does not declare %s", tool)
	return 0
}

// check --probe on the read-only liar: the probe's violation fails the
// verdict and the exit status, shows in every report check writes (SARIF at
// the line of the repository that declares the tool), and joins the ledger.
func TestCheckProbeJoinsEveryReportAndTheLedger(t *testing.T) {
	asMcpverdict(t)
	root, line := liarRepository(t)
	t.Setenv("GITHUB_WORKSPACE", root)
	out := t.TempDir()
	file := func(name string) string { return filepath.Join(out, name) }
	code, stdout, stderr := runCLI(t, "check", "--out", out, "--revision", "2025-11-25", "--probe", probeFixture("readonly-liar"), "--probe-attempts", "1",
		"--sarif", file("r.sarif"), "--junit", file("r.junit.xml"), "--markdown", file("r.md"), "--github", file("r.github"), "--json", file("r.json"))
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the probe found a violation)\n%s\n%s", code, stdout, stderr)
	}
	want := map[string][]string{
		"stdout":                               {"  VIOLATION        get_item read_only (readOnlyHint true): BUSINESS_CHANGE: run 1: overwritten", "verdict: fail"},
		"r.junit.xml":                          {`get_item read_only (readOnlyHint true)`, `type="VIOLATION"`},
		"r.md":                                 {"## ❌ mcpverdict: fail", "### Tool annotations probed: `readonly-liar`", "| `get_item` | ❌ VIOLATION"},
		"r.github":                             {"::error file=server/main.go,line=" + strconv.Itoa(line) + ",title=probe/read_only%3A get_item readOnlyHint true::get_item read_only"},
		"report.txt":                           {"probe readonly-liar ("},
		"r.json":                               {`"probes": [`, `"verdict": "VIOLATION"`},
		"probe/readonly-liar/probe-report.txt": {"get_item"},
	}
	for name, wants := range want {
		text := stdout
		if name != "stdout" {
			b, err := os.ReadFile(file(name))
			if err != nil {
				t.Fatal(err)
			}
			text = string(b)
		}
		for _, w := range wants {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %q:\n%.1500s", name, w, text)
			}
		}
	}
	checkReportSchema(t, file("r.json"))
	checkProbeSARIFPlace(t, file("r.sarif"), line)
	checkProbeLedger(t, out)
}

// checkProbeSARIFPlace holds the read_only violation's SARIF result to the
// line of the repository that declares get_item.
func checkProbeSARIFPlace(t *testing.T, path string, line int) {
	t.Helper()
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					Physical struct {
						Artifact struct{ URI string }    `json:"artifactLocation"`
						Region   struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%s: %v (%d runs): one run holds the clauses and the probe", path, err, len(log.Runs))
	}
	for _, r := range log.Runs[0].Results {
		if r.RuleID == "probe/read_only" {
			if loc := r.Locations[0].Physical; loc.Artifact.URI != "server/main.go" || loc.Region.StartLine != line {
				t.Errorf("the violation is at %s:%d, want server/main.go:%d", loc.Artifact.URI, loc.Region.StartLine, line)
			}
			return
		}
	}
	t.Errorf("no probe/read_only result in %s", path)
}

// checkProbeLedger holds the ledger to every probe verdict, each with the
// digest of its evidence in probe-report.json, and shows that changing a
// verdict breaks the chain.
func checkProbeLedger(t *testing.T, out string) {
	t.Helper()
	ledgerPath, headPath := filepath.Join(out, LedgerFile), filepath.Join(out, HeadFile)
	code, stdout, stderr := runCLI(t, "ledger", "verify", "--ledger", ledgerPath, "--expected-head", headPath)
	if code != 0 || !strings.Contains(stdout, `"probe_report":1`) || !strings.Contains(stdout, `"probe_verdict":5`) {
		t.Fatalf("ledger verify: exit %d\n%s%s", code, stdout, stderr)
	}
	var rep probe.Report
	data, _ := os.ReadFile(filepath.Join(out, "probe", "readonly-liar", probeReportJSON))
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Tools) != 1 {
		t.Fatalf("probe-report.json: %v", err)
	}
	wantDigest, err := evidence.EvidenceDigest(rep.Tools[0], &rep.Tools[0].Tests[0])
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(ledgerPath)
	var tampered bytes.Buffer
	found := false
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Text()
		var b struct {
			Type   string         `json:"type"`
			Record map[string]any `json:"record"`
		}
		json.Unmarshal([]byte(line), &b)
		if b.Type == "probe_verdict" && b.Record["tool"] == "get_item" && b.Record["test"] == "read_only" {
			found = true
			if b.Record["verdict"] != "VIOLATION" || b.Record["primary_reason"] != "BUSINESS_CHANGE" || b.Record["evidence_sha256"] != wantDigest {
				t.Errorf("the ledger's read_only verdict is %v, want VIOLATION, BUSINESS_CHANGE and evidence %s", b.Record, wantDigest)
			}
			line = strings.Replace(line, `"verdict":"VIOLATION"`, `"verdict":"PASS"`, 1)
		}
		tampered.WriteString(line + "\n")
	}
	if !found {
		t.Fatal("no probe_verdict block for get_item read_only")
	}
	edited := writeTemp(t, "tampered.jsonl", tampered.String())
	if code, stdout, stderr := runCLI(t, "ledger", "verify", "--ledger", edited, "--expected-head", headPath); code != 1 {
		t.Errorf("a probe verdict changed from VIOLATION to PASS: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
}

// check --probe refuses a bad definition before anything runs, and a
// definition whose server does not start after the sessions, in one line
// naming the file and key, exit 2, with no probe verdict claimed.
func TestCheckProbeRefusesBadDefinitions(t *testing.T) {
	asMcpverdict(t)
	const sqlite = "[server]\ncommand = [\"x\"]\n[[adapters]]\nkind = \"sqlite\"\npath = \"db\"\nseed = \"seed.sql\"\n[[tools]]\nname = \"x\"\n"
	cases := []struct {
		name, body, seed, want string
		sessionsRan            bool
	}{
		{"typo.toml", "[server]\ncomand = [\"x\"]\n", "", "typo.toml: server.comand: unknown key", false},
		{"todo.toml", "[server]\ncommand = [\"TODO(mcpverdict): the command\"]\n", "", "todo.toml: server.command[0]: still holds a TODO(", false},
		{"seed.toml", sqlite, "CREATE TABLE items (", "seed.toml: adapters[0].seed: the seed does not load", false},
		{"noserver.toml", "[server]\ncommand = [\"/nonexistent/mcp-server\"]\n[[tools]]\nname = \"x\"\n", "", "noserver.toml: server.command: the server did not start", true},
	}
	for _, tc := range cases {
		out := t.TempDir()
		code, _, stderr := runCLI(t, "check", "--out", out, "--revision", "2025-11-25", "--probe", definitionWithSeed(t, tc.name, tc.body, tc.seed))
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if last := lines[len(lines)-1]; code != 2 || !strings.HasPrefix(last, "mcpverdict: ") || !strings.Contains(last, tc.want) {
			t.Errorf("%s: exit %d, last stderr line %q; want exit 2 and %q", tc.name, code, last, tc.want)
		}
		report, err := os.ReadFile(filepath.Join(out, "report.json"))
		if ran := err == nil; ran != tc.sessionsRan {
			t.Errorf("%s: sessions ran: %v, want %v", tc.name, ran, tc.sessionsRan)
		}
		if bytes.Contains(report, []byte(`"probes"`)) {
			t.Errorf("%s: the report claims probe verdicts", tc.name)
		}
	}
	mask := maskMatchingNothing(t)
	code, _, stderr := runCLI(t, "check", "--out", t.TempDir(), "--probe", mask)
	if want := mask + `: adapters[0].masks[0]: no seeded record of region "audit" has field "when"`; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("a mask matching nothing: exit %d, %q; want 2 and %q", code, stderr, want)
	}
	if code, _, stderr := runCLI(t, "check", "--out", t.TempDir(), "--probe", probeFixture("readonly-liar"), "--probe-attempts", "0"); code != 2 || !strings.Contains(stderr, "--probe-attempts 0") {
		t.Errorf("--probe-attempts 0: exit %d, %q", code, stderr)
	}
}
