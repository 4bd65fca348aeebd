package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestContractLockFromATraceThenCheckShowsDrift(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, "mcp-contract.json")
	code, _, stderr := runCLI(t, "contract", "lock", "-o", lock, corpusFile("good/base-session-2025-11-25.jsonl"))
	if code != 0 || !strings.Contains(stderr, "locked 1 tools under recipe 3") {
		t.Fatalf("lock: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(lock)
	if !strings.Contains(string(b), `"name": "book_table"`) || !strings.Contains(string(b), `"bound_contract": "sha256:`) {
		t.Fatalf("lockfile:\n%s", b)
	}
	code, _, stderr = runCLI(t, "contract", "lock", "-o", lock, "--recipe", "7", corpusFile("good/base-session-2025-11-25.jsonl"))
	if code != 2 || !strings.Contains(stderr, `unknown contract recipe "7"`) {
		t.Errorf("--recipe 7: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(t, "contract", "lock", "-o", lock, writeTemp(t, "empty.jsonl", ""))
	if code != 2 || !strings.Contains(stderr, "nothing to lock") {
		t.Errorf("no tools: exit %d: %s", code, stderr)
	}
}

func TestCheckWritesTheRunLedgerAndReportsDrift(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	dir := t.TempDir()
	lock := filepath.Join(dir, "mcp-contract.json")
	out := filepath.Join(dir, "out")
	if code, _, stderr := runCLI(t, "contract", "lock", "-o", lock); code != 0 {
		t.Fatalf("lock: %s", stderr)
	}
	b, _ := os.ReadFile(lock)
	edited := strings.Replace(string(b), `"name": "echo"`, `"name": "echo_old"`, 1)
	os.WriteFile(lock, []byte(edited), 0o644)
	reportJSON := filepath.Join(dir, "report-contract.json")
	code, _, stderr := runCLI(t, "check", "--out", out, "--contract", lock, "--call", "none", "--repo", dir, "--json", reportJSON)
	if code != 1 {
		t.Fatalf("check with drift: exit %d: %s", code, stderr)
	}
	for _, want := range []string{`echo_old: tool "echo_old" is in the lockfile but the server no longer lists it [tool_removed]`, `[tool_added]`, "ledger head: sha256:"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	holdToReportSchema(t, reportJSON, "CONTRACT-002", "CONTRACT-003")
	var rep struct {
		Build string
		Runs  []struct {
			Server *struct{ Name, Version string }
		}
	}
	if data, _ := os.ReadFile(reportJSON); json.Unmarshal(data, &rep) != nil || !strings.HasPrefix(rep.Build, "mcpverdict ") || len(rep.Runs) == 0 || rep.Runs[0].Server == nil || rep.Runs[0].Server.Name == "" {
		t.Errorf("the report does not say what ran it or which server it judged: %+v", rep)
	}
	head, _ := os.ReadFile(filepath.Join(out, HeadFile))
	code, stdout, _ := runCLI(t, "ledger", "verify", "--ledger", filepath.Join(out, LedgerFile), "--expected-head", string(head))
	if code != 0 || !strings.Contains(stdout, `"contract_findings":1`) {
		t.Errorf("the run ledger does not verify: %s", stdout)
	}
	if !strings.Contains(stdout, `"server":`) {
		t.Errorf("the ledger has no server block: %s", stdout)
	}
	// What a user globs for the traces finds the traces alone.
	traces, _ := filepath.Glob(filepath.Join(out, "*.jsonl"))
	args := append([]string{"validate"}, traces...)
	if code, stdout, stderr := runCLI(t, args...); len(traces) == 0 || code == 2 || code == 3 {
		t.Errorf("validate %s/*.jsonl: exit %d\n%s%s", out, code, stdout, stderr)
	}
}

// holdToReportSchema checks a json report with contract findings still
// matches the published report schema, and fails the clauses named.
func holdToReportSchema(t *testing.T, path string, failing ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	matchReportSchema(t, data)
	for _, id := range failing {
		if !bytes.Contains(data, []byte(`"id": "`+id+`"`)) && !bytes.Contains(data, []byte(`"id":"`+id+`"`)) {
			t.Errorf("the report lacks %s", id)
		}
	}
}

func TestValidateWritesALedgerAndJudgesTheContract(t *testing.T) {
	dir := t.TempDir()
	tr := corpusFile("good/base-session-2025-11-25.jsonl")
	lock := filepath.Join(dir, "mcp-contract.json")
	if code, _, stderr := runCLI(t, "contract", "lock", "-o", lock, tr); code != 0 {
		t.Fatal(stderr)
	}
	led := filepath.Join(dir, "evidence", "run.jsonl")
	os.MkdirAll(filepath.Dir(led), 0o755)
	code, stdout, stderr := runCLI(t, "validate", "--contract", lock, "--ledger", led, tr)
	if code != 0 || !strings.Contains(stderr, "every tool matches") {
		t.Fatalf("validate: exit %d\n%s%s", code, stdout, stderr)
	}
	head := strings.TrimSuffix(led, ".jsonl") + ".head"
	if code, out, errs := runCLI(t, "ledger", "verify", "--ledger", led, "--expected-head", head); code != 0 || !strings.Contains(out, `"trace":1`) {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errs)
	}
	b, _ := os.ReadFile(lock)
	os.WriteFile(lock, []byte(strings.Replace(string(b), `"name": "book_table"`, `"name": "book_a_table"`, 1)), 0o644)
	code, stdout, _ = runCLI(t, "validate", "--contract", lock, "--all", tr)
	if code != 1 || !strings.Contains(stdout, "CONTRACT-003") {
		t.Errorf("validate with drift: exit %d\n%s", code, stdout)
	}
}

func TestABadLockfileIsOneLineAndExit2(t *testing.T) {
	bad := writeTemp(t, "mcp-contract.json", `{"contract_recipe":"3","tools":[{"name":"a"},{"name":"a"}]}`)
	code, _, stderr := runCLI(t, "validate", "--contract", bad, corpusFile("good/base-session-2025-11-25.jsonl"))
	if code != 2 || !strings.Contains(stderr, bad+`: $.tools[1].name: duplicate tool name "a"`) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("exit %d: %q", code, stderr)
	}
}
