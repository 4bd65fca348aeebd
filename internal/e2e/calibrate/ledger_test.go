package calibrate

import (
	"os"
	"path/filepath"
	"testing"
)

func TestTheCommittedLedgerReads(t *testing.T) {
	l, err := readLedger(ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range l.Divergences {
		if d.Kind != WeFail && d.Kind != SuiteFail {
			t.Errorf("divergence %+v: unknown kind", d)
		}
		if (d.Kind == WeFail) != (d.Clause != "") {
			t.Errorf("divergence %+v: a clause goes with we-fail, and only there", d)
		}
	}
}

func TestLedgerAudit(t *testing.T) {
	l := &Ledger{Divergences: []Divergence{
		{Kind: WeFail, Server: "s", Run: "r", Clause: "BASE-002", Scenarios: []string{"a", "b"}, Reason: "x"},
		{Kind: SuiteFail, Server: "s", Run: "r", Scenarios: []string{"c"}, Reason: "y", Intermittent: true},
		{Kind: SuiteFail, Server: "s", Run: "other", Scenarios: []string{"d"}, Reason: "z"},
		{Kind: SuiteFail, Server: "s", Run: "r", Scenarios: []string{"e"}, Reason: "w"},
	}}
	found := []Disagreement{
		{Kind: WeFail, Server: "s", Run: "r", Clause: "BASE-002", Scenario: "a"},
		{Kind: WeFail, Server: "s", Run: "r", Clause: "BASE-003", Scenario: "a"},
	}
	compared := map[string]bool{"s/r": true, "s/r/a": true, "s/r/b": true, "s/r/c": true, "s/r/e": false}
	a := l.audit(found, compared)
	if a.Explained != 1 || len(a.Unexplained) != 1 || a.Unexplained[0].Clause != "BASE-003" {
		t.Errorf("explained %d, unexplained %v", a.Explained, a.Unexplained)
	}
	// b no longer disagrees; c is intermittent, d's run did not run, e was inconclusive.
	if len(a.Stale) != 1 {
		t.Errorf("stale %q, want only scenario b", a.Stale)
	}
}

func TestLedgerRefusesAnEntryWithoutItsReason(t *testing.T) {
	p := filepath.Join(t.TempDir(), "divergences.json")
	os.WriteFile(p, []byte(`{"divergences":[{"kind":"suite-fail","server":"s","run":"r","scenarios":["a"],"reason":" "}]}`), 0o644)
	if _, err := readLedger(p); err == nil {
		t.Error("an entry without a reason was accepted")
	}
	os.WriteFile(p, []byte(`{"divergences":[{"kind":"suite-fail","server":"s","run":"r","scenarios":["a"],"reason":"r","why":"typo"}]}`), 0o644)
	if _, err := readLedger(p); err == nil {
		t.Error("an unknown field was accepted")
	}
}

func TestDisagreementsBothWays(t *testing.T) {
	run := suiteRun{Name: "r"}
	passed := scenario{Name: "p", Checks: []suiteCheck{{ID: "x", Status: "SUCCESS"}}}
	failed := scenario{Name: "f", Checks: []suiteCheck{{ID: "x", Status: "FAILURE", ErrorMessage: "bad"}}}
	we := disagreements("s", run, passed, passed.failed(), judged{Fails: map[string]string{"TOOL-1": "m"}})
	if len(we) != 1 || we[0].Kind != WeFail || we[0].Clause != "TOOL-1" {
		t.Errorf("we-fail: %+v", we)
	}
	suite := disagreements("s", run, failed, failed.failed(), judged{Fails: map[string]string{}, Flagged: 1})
	if len(suite) != 1 || suite[0].Kind != SuiteFail {
		t.Errorf("a suite failure with only a warning from mcpverdict: %+v", suite)
	}
	if d := disagreements("s", run, failed, failed.failed(), judged{Fails: map[string]string{"A": "m"}}); len(d) != 0 {
		t.Errorf("both failed, yet %+v", d)
	}
	if !onlyTimeouts([]suiteCheck{{ID: "scenario-timeout"}, {ID: "y", ErrorMessage: "MCP error -32001: Request timed out"}}) {
		t.Error("timeouts not recognised")
	}
}
