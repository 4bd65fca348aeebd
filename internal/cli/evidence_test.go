package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func evidencePair() (declared, observed string) {
	dir := filepath.Join("..", "evidence", "testdata")
	return filepath.Join(dir, "weather-declared.json"), filepath.Join(dir, "weather-observed.json")
}

func TestEvidenceValidateWritesAVerifiableLedger(t *testing.T) {
	declared, observed := evidencePair()
	dir := t.TempDir()
	out, headOut := filepath.Join(dir, "evidence.jsonl"), filepath.Join(dir, "evidence.head")
	code, stdout, stderr := runCLI(t, "evidence", "validate", "--declared", declared, "--observed", observed, "--out", out, "--head-out", headOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`"check": "scope_violation"`, `"contract_recipes": [`, `"healthy": [`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %s", want)
		}
	}
	head, _ := os.ReadFile(headOut)
	if !strings.Contains(stderr, "ledger head: "+strings.TrimSpace(string(head))) {
		t.Errorf("stderr %q does not print the head", stderr)
	}
	code, stdout, stderr = runCLI(t, "ledger", "verify", "--ledger", out, "--expected-head", string(head))
	if code != 0 || !strings.Contains(stdout, `block types: {"declaration":1,"observation_batch":1,"provenance":1,"report":1}`) || !strings.Contains(stdout, "contract recipes: 1, 2, 3") {
		t.Fatalf("verify: exit %d\n%s%s", code, stdout, stderr)
	}
}

func TestEvidenceValidateRefusesBadInput(t *testing.T) {
	declared, observed := evidencePair()
	dup := writeTemp(t, "dup.json", `{"tools":[{"name":"a"},{"name":"a"}]}`)
	dir := t.TempDir()
	out := filepath.Join(dir, "evidence.jsonl")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--declared", dup, "--observed", observed, "--out", out}, dup + `: $.tools[1].name: duplicate tool name "a"`},
		{[]string{"--declared", declared, "--observed", declared, "--out", out}, `$.observations: missing`},
		{[]string{"--declared", declared + ".missing", "--observed", observed, "--out", out}, "cannot read the declaration"},
		{[]string{"--declared", declared, "--observed", observed}, "--out is required"},
		{[]string{"--declared", declared, "--observed", observed, "--out", filepath.Join(dir, "no", "such", "dir")}, "cannot write"},
	}
	for _, tc := range cases {
		code, _, stderr := runCLI(t, append([]string{"evidence", "validate"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q lacks %q", tc.args, code, stderr, tc.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad input left %d files behind", len(entries))
	}
}
