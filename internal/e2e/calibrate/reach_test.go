package calibrate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// checkReach runs `mcpverdict check` with args and returns, per revision,
// the most clauses one of its sessions judged (pass, fail or warn).
func checkReach(t *testing.T, bin string, args ...string) map[string]int {
	t.Helper()
	out := t.TempDir()
	start := time.Now()
	cmd := exec.Command(bin, append([]string{"check", "--out", out}, args...)...)
	if b, err := cmd.CombinedOutput(); err != nil && cmd.ProcessState.ExitCode() > 1 {
		t.Fatalf("check %v: %v\n%s", args, err, b)
	}
	t.Logf("check %v took %s", args, time.Since(start).Round(10*time.Millisecond))
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var report judge.Report
	if err := json.Unmarshal(b, &report); err != nil {
		t.Fatal(err)
	}
	reach := map[string]int{}
	for _, r := range report.Runs {
		reach[r.Revision] = max(reach[r.Revision], r.Totals.Pass+r.Totals.Fail+r.Totals.Warn)
	}
	return reach
}

// mostBySuite is the most clauses one suite session judged, over the
// outcomes that match keep.
func mostBySuite(outcomes []Outcome, keep func(Outcome) bool) int {
	most := 0
	for _, o := range outcomes {
		if keep(o) {
			most = max(most, o.Clauses)
		}
	}
	return most
}

// holdReach checks the target: check judges more clauses in one
// session than any session the suite recorded of the same revision.
func holdReach(t *testing.T, bin, goServer string, outcomes []Outcome) {
	legacy := mostBySuite(outcomes, func(o Outcome) bool { return o.Run != "0.2.0-alpha.12/2026-07-28" })
	modern := mostBySuite(outcomes, func(o Outcome) bool { return o.Run == "0.2.0-alpha.12/2026-07-28" })
	if legacy == 0 || modern == 0 {
		t.Errorf("no judged suite session to compare check's reach with (best 2025-11-25: %d, best 2026-07-28: %d clauses)", legacy, modern)
	}
	everything := checkReach(t, bin, "--server", shellWords(peers.Everything(t)))
	if everything["2025-11-25"] <= legacy {
		t.Errorf("check on server-everything judged %d clauses, not more than the %d of the best 2025-11-25 suite session", everything["2025-11-25"], legacy)
	}
	stateless := checkReach(t, bin, "--url", startGoEverything(t, goServer, false), "--revision", "2026-07-28")
	if stateless["2026-07-28"] <= modern {
		t.Errorf("check on the Go everything-server judged %d clauses under 2026-07-28, not more than the %d of the best suite session", stateless["2026-07-28"], modern)
	}
	t.Logf("clauses judged in one session: check %d (server-everything, 2025-11-25) and %d (Go everything-server, 2026-07-28); the suite at most %d and %d",
		everything["2025-11-25"], stateless["2026-07-28"], legacy, modern)
}

func shellWords(argv []string) string {
	out := ""
	for i, a := range argv {
		if i > 0 {
			out += " "
		}
		out += "'" + a + "'"
	}
	return out
}
