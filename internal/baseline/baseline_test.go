package baseline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/provenance"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

func clause(id string, level spec.Level, area string) *spec.Clause {
	return &spec.Clause{ID: id, Level: level, Area: area, Revision: "2025-11-25"}
}

// run is one trace's judgement: each clause with its outcome, contract
// clauses with one finding per message.
func run(trace string, outcomes map[*spec.Clause]judge.Outcome, drift ...string) judge.Run {
	r := judge.Run{Trace: trace, Revision: "2025-11-25"}
	for c, o := range outcomes {
		res := judge.ClauseResult{Clause: c, Outcome: o}
		if c.Area == "CONTRACT" {
			for _, m := range drift {
				res.Findings = append(res.Findings, judge.Finding{Message: m})
			}
		}
		r.Clauses = append(r.Clauses, res)
	}
	return r
}

func reportOf(runs ...judge.Run) *judge.Report {
	return &judge.Report{Tool: "mcpverdict", Version: "1", Runs: runs, Verdict: judge.VerdictFail}
}

var (
	must     = clause("BASE-001", spec.Must, "BASE")
	should   = clause("BASE-002", spec.Should, "BASE")
	other    = clause("BASE-003", spec.Must, "BASE")
	contract = clause("CONTRACT-001", spec.Must, "CONTRACT")
)

// A clause is judged at its worst over the sessions of a revision: one
// that fails in one session and passes in another failed, so it is not new
// when the baseline failed it in one session too.
func TestAClauseIsComparedAtItsWorstOverTheRuns(t *testing.T) {
	then := reportOf(run("a.jsonl", map[*spec.Clause]judge.Outcome{must: judge.Pass}), run("b.jsonl", map[*spec.Clause]judge.Outcome{must: judge.Fail}))
	now := reportOf(run("c.jsonl", map[*spec.Clause]judge.Outcome{must: judge.Fail, should: judge.Warn}), run("d.jsonl", map[*spec.Clause]judge.Outcome{must: judge.NotObserved}))
	d := Compare("base.json", &Report{Report: then}, Current{Report: now})
	if len(d.New) != 1 || d.New[0].Clause != "BASE-002" || d.New[0].Then != Absent || d.New[0].Now != "warn" {
		t.Errorf("new %+v", d.New)
	}
	if d.NewFailures() != 0 {
		t.Errorf("a new SHOULD warning counts as a new failure: %d", d.NewFailures())
	}
	if len(d.Fixed) != 0 {
		t.Errorf("fixed %+v", d.Fixed)
	}
}

func TestFixedAndNewMustFailures(t *testing.T) {
	then := reportOf(run("a.jsonl", map[*spec.Clause]judge.Outcome{must: judge.Fail, other: judge.NotObserved}))
	now := reportOf(run("a.jsonl", map[*spec.Clause]judge.Outcome{must: judge.NotObserved, other: judge.Fail}))
	d := Compare("base.json", &Report{Report: then}, Current{Report: now})
	if d.NewFailures() != 1 || !d.IsNew("2025-11-25", "BASE-003") || d.IsNew("2025-11-25", "BASE-001") || d.IsNew("2026-07-28", "BASE-003") {
		t.Errorf("new %+v", d.New)
	}
	if len(d.Fixed) != 1 || d.Fixed[0].Clause != "BASE-001" || d.Fixed[0].Now != "not-observed" {
		t.Errorf("fixed %+v", d.Fixed)
	}
}

// Drift is compared finding by finding: a tool that drifts now under a
// contract clause that failed then for another tool is new drift.
func TestContractDriftIsComparedFindingByFinding(t *testing.T) {
	then := reportOf(run("lock.json", map[*spec.Clause]judge.Outcome{contract: judge.Fail}, "tool a changed"))
	now := reportOf(run("lock.json", map[*spec.Clause]judge.Outcome{contract: judge.Fail}, "tool b changed"))
	d := Compare("base.json", &Report{Report: then}, Current{Report: now})
	if len(d.New) != 0 || len(d.Contracts) != 2 || d.Contracts[0] != (ContractChange{"CONTRACT-001", "new", "tool b changed"}) ||
		d.Contracts[1].Change != "gone" || d.NewFailures() != 1 || !d.IsNewContract("CONTRACT-001", "tool b changed") {
		t.Errorf("contracts %+v, new failures %d", d.Contracts, d.NewFailures())
	}
}

func TestABaselineOfAnotherServerOrVersionIsNotCompared(t *testing.T) {
	then := reportOf(run("a.jsonl", map[*spec.Clause]judge.Outcome{must: judge.Pass}))
	then.Runs[0].Server = &provenance.ServerIdentity{Name: "alpha"}
	now := reportOf(run("a.jsonl", map[*spec.Clause]judge.Outcome{must: judge.Fail}))
	if d := Compare("base.json", &Report{Report: then}, Current{Report: now, Servers: []string{"beta"}}); d.Compared() || !strings.Contains(d.Ignored, "server alpha") || d.NewFailures() != 0 {
		t.Errorf("another server: %+v", d)
	}
	if d := Compare("base.json", &Report{Report: then}, Current{Report: now, Servers: []string{"alpha", ""}}); !d.Compared() || d.NewFailures() != 1 {
		t.Errorf("the same server: %+v", d)
	}
	now.Version = "2"
	if d := Compare("base.json", &Report{Report: then}, Current{Report: now}); d.Compared() || !strings.Contains(d.Ignored, "mcpverdict 1 and this is 2") {
		t.Errorf("another version: %+v", d)
	}
}

func TestLoadRefusesWhatIsNoReport(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "none.json"): "cannot read baseline",
		dir:                             "is not a report file",
		write("torn.json", `{"tool":`):  "is not JSON",
		write("array.json", `[1]`):      "is not JSON",
		write("other.json", `{"tool":"x","version":"1"}`):      "is not an mcpverdict report",
		write("empty.json", `{"tool":"mcpverdict","runs":[]}`): "is not an mcpverdict report",
	} {
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming it and %q", path, err, want)
		}
	}
	if _, err := Load(write("ok.json", `{"tool":"mcpverdict","version":"1","verdict":"pass","runs":[]}`)); err != nil {
		t.Errorf("a report: %v", err)
	}
}
