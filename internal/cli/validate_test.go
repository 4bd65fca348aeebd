package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := Command{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	code = cmd.Main(args)
	return code, out.String(), errb.String()
}

func corpusFile(name string) string { return filepath.Join("..", "..", "corpus", name) }

func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestValidateExitStatuses(t *testing.T) {
	torn := `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"method":"ping"}}` + "\n" + `{"seq":1,"dir`
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"conforming", []string{"validate", corpusFile("good/http-session-2025-11-25.jsonl")}, 0, "verdict: pass"},
		{"violation", []string{"validate", corpusFile("violations/base-request-id-reuse.jsonl")}, 1, "BASE-005"},
		{"torn trace", []string{"validate", writeTemp(t, "torn.jsonl", torn)}, 3, "verdict: incomplete"},
		{"unknown revision", []string{"validate", "--revision", "2024-01-01", corpusFile("good/http-session-2025-11-25.jsonl")}, 2, "unknown --revision"},
		{"unknown party", []string{"validate", "--party", "host", corpusFile("good/http-session-2025-11-25.jsonl")}, 2, `"server" or "client"`},
		{"missing file", []string{"validate", "/nonexistent/t.jsonl"}, 2, "cannot read trace"},
		{"nothing to judge", []string{"validate", writeTemp(t, "empty.jsonl", "# nothing\n")}, 2, "nothing to judge"},
		{"no args", []string{"validate"}, 2, "requires at least 1 arg"},
		{"an empty trace among others", []string{"validate", corpusFile("good/http-session-2025-11-25.jsonl"), writeTemp(t, "empty.jsonl", "")}, 3, "INCOMPLETE  the trace holds no MCP message"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s\nwant text %q", code, tc.code, out, errOut, tc.want)
			}
		})
	}
}

func TestValidateWritesReportFileWhole(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sub", "report.json")
	code, _, errOut := runCLI(t, "validate", "--format", "json", "-o", out, corpusFile("violations/base-request-id-reuse.jsonl"))
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(b, []byte(`"verdict": "fail"`)) {
		t.Fatalf("report %s: %v\n%s", out, err, b)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

func TestValidatePartyScopesTheVerdict(t *testing.T) {
	code, out, _ := runCLI(t, "validate", "--party", "server", corpusFile("violations/base-request-id-reuse.jsonl"))
	if code != 0 || !strings.Contains(out, "findings against the server only") {
		t.Errorf("a client violation failed a server-scoped verdict (exit %d):\n%s", code, out)
	}
}

func TestRequirements(t *testing.T) {
	code, out, _ := runCLI(t, "requirements", "--revision", "2025-11-25", "--area", "LIFE", "--excluded")
	if code != 0 || !strings.Contains(out, "LIFE-009") || strings.Contains(out, "LIFE-001 ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, _, errOut := runCLI(t, "requirements", "NOPE-999")
	if code != 2 || !strings.Contains(errOut, `no clause "NOPE-999"`) {
		t.Errorf("unknown id: exit %d: %s", code, errOut)
	}
}

func TestValidateJudgesARevisionNamedTwiceOnce(t *testing.T) {
	code, out, errOut := runCLI(t, "validate", "--revision", "2025-11-25", "--revision", "2025-11-25", corpusFile("good/http-session-2025-11-25.jsonl"))
	if code != 0 || strings.Count(out, "revision 2025-11-25") != 1 {
		t.Errorf("exit %d, %d runs under 2025-11-25 (want one)\n%s%s", code, strings.Count(out, "revision 2025-11-25"), out, errOut)
	}
}
