package calibrate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
)

// ledgerPath is the committed ledger of explained divergences.
var ledgerPath = filepath.Join("..", "..", "..", "conformance", "divergences.json")

// reportEnv names a file the test writes its full comparison to, as JSON
// (scripts/calibrate sets it).
const reportEnv = "MCPVERDICT_CALIBRATION_REPORT"

// keepEnv names a directory to keep the traces and the suite's output in,
// instead of the test's temporary one.
const keepEnv = "MCPVERDICT_CALIBRATION_DIR"

// calibration is one server under one run of the suite.
type calibration struct {
	server string
	run    suiteRun
	// start returns the endpoint of a fresh server for the run.
	start func(t *testing.T) string
}

func calibrations(goServer string) []calibration {
	goStateful := func(t *testing.T) string { return startGoEverything(t, goServer, true) }
	goStateless := func(t *testing.T) string { return startGoEverything(t, goServer, false) }
	everything := func(t *testing.T) string { return peers.EverythingHTTP(t) }
	return []calibration{
		{"go-sdk-everything-server", suiteRun{Name: "0.1.16", Version: "0.1.16"}, goStateful},
		{"go-sdk-everything-server", suiteRun{Name: "0.2.0-alpha.12", Version: "0.2.0-alpha.12"}, goStateful},
		{"go-sdk-everything-server", suiteRun{Name: "0.2.0-alpha.12/2026-07-28", Version: "0.2.0-alpha.12", Args: []string{"--requirements", "2026-07-28"}}, goStateless},
		{"server-everything", suiteRun{Name: "0.1.16", Version: "0.1.16"}, everything},
		{"server-everything", suiteRun{Name: "0.2.0-alpha.12", Version: "0.2.0-alpha.12"}, everything},
	}
}

// Report is the whole comparison, for scripts/calibrate.
type Report struct {
	Outcomes      []Outcome      `json:"outcomes"`
	Disagreements []Disagreement `json:"disagreements"`
	Unexplained   []Disagreement `json:"unexplained"`
	Stale         []string       `json:"stale"`
	// MostClauses is the most clauses any one scenario's session judged.
	MostClauses int          `json:"most_clauses_in_one_suite_session"`
	Summary     []RunSummary `json:"summary"`
}

// RunSummary counts, for one server under one run of the suite, the
// scenarios whose verdicts agree (the suite passed and mcpverdict failed no
// clause against the server, or both failed the server) and those that
// disagree.
type RunSummary struct {
	Server      string `json:"server"`
	Run         string `json:"run"`
	Scenarios   int    `json:"scenarios"`
	SuiteFailed int    `json:"suite_failed"`
	// Inconclusive counts the scenarios the suite failed on a timeout of
	// its own client, which are not compared.
	Inconclusive int `json:"inconclusive"`
	Agree        int `json:"agree"`
	Disagree     int `json:"disagree"`
}

func summarize(outcomes []Outcome, diffs []Disagreement) []RunSummary {
	disagreeing := map[string]bool{}
	for _, d := range diffs {
		disagreeing[d.Server+"/"+d.Run+"/"+d.Scenario] = true
	}
	var out []RunSummary
	index := map[string]int{}
	for _, o := range outcomes {
		key := o.Server + "/" + o.Run
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, RunSummary{Server: o.Server, Run: o.Run})
		}
		s := &out[i]
		s.Scenarios++
		if o.SuiteFailed {
			s.SuiteFailed++
		}
		switch {
		case o.Inconclusive:
			s.Inconclusive++
		case disagreeing[key+"/"+o.Scenario]:
			s.Disagree++
		default:
			s.Agree++
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Server+out[i].Run < out[j].Server+out[j].Run })
	return out
}

// TestCalibration runs the official conformance suite through mcpverdict's
// recording proxy against the Go SDK's everything-server and against
// server-everything, judges every scenario's trace, and holds each
// disagreement to conformance/divergences.json: a new one, or an entry that
// no longer disagrees, fails.
func TestCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("the conformance suite takes a while")
	}
	node := peers.Node22(t)
	work := workDir(t)
	env := suiteEnv{node: node, mcpverdict: goBuild(t, work, "github.com/mcpverdict/mcpverdict/cmd/mcpverdict", "mcpverdict")}
	goServer := goBuild(t, work, goEverything, "go-everything-server")
	ledger, err := readLedger(ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	report := runAll(t, env, work, calibrations(goServer))
	compared := map[string]bool{}
	for _, o := range report.Outcomes {
		compared[o.Server+"/"+o.Run] = true
		compared[o.Server+"/"+o.Run+"/"+o.Scenario] = !o.Inconclusive
	}
	audit := ledger.audit(report.Disagreements, compared)
	report.Unexplained, report.Stale = audit.Unexplained, audit.Stale
	report.Summary = summarize(report.Outcomes, report.Disagreements)
	writeReport(t, report)
	for _, s := range report.Summary {
		t.Logf("%-25s conformance %-26s %3d scenarios (suite failed %2d): %3d agree, %2d disagree, %d inconclusive",
			s.Server, s.Run, s.Scenarios, s.SuiteFailed, s.Agree, s.Disagree, s.Inconclusive)
	}
	t.Logf("%d disagreements, %d explained by %s; most clauses judged in one suite session: %d",
		len(report.Disagreements), audit.Explained, ledgerPath, report.MostClauses)
	keepEvidence(t, audit.Unexplained)
	for _, x := range audit.Unexplained {
		t.Errorf("unexplained disagreement: %s %s %s %s %s: %s\nledger entry to complete:\n    %s", x.Kind, x.Server, x.Run, x.Scenario, x.Clause, x.Detail, draft(x))
	}
	for _, s := range audit.Stale {
		t.Errorf("stale ledger entry: %s", s)
	}
	holdReach(t, env.mcpverdict, goServer, report.Outcomes)
}

// runAll runs every calibration, two at a time, and gathers the outcomes.
func runAll(t *testing.T, env suiteEnv, work string, cals []calibration) Report {
	var mu sync.Mutex
	var report Report
	var wg sync.WaitGroup
	slots := make(chan struct{}, 2)
	for _, c := range cals {
		upstream := c.start(t)
		env := env
		env.script = peers.Conformance(t, c.run.Version)
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			outcomes, diffs, err := calibrate(env, c, upstream, work)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("%s under conformance %s: %v", c.server, c.run.Name, err)
				return
			}
			report.Outcomes = append(report.Outcomes, outcomes...)
			report.Disagreements = append(report.Disagreements, diffs...)
		}()
	}
	wg.Wait()
	for _, o := range report.Outcomes {
		report.MostClauses = max(report.MostClauses, o.Clauses)
	}
	return report
}

func calibrate(env suiteEnv, c calibration, upstream, work string) ([]Outcome, []Disagreement, error) {
	dir := filepath.Join(work, c.server, strings.ReplaceAll(c.run.Name, "/", "_"))
	scenarios, err := runSuite(env, c.run, upstream, dir)
	if err != nil {
		return nil, nil, err
	}
	return compare(c.server, c.run, scenarios)
}

func workDir(t *testing.T) string {
	if dir := os.Getenv(keepEnv); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.TempDir()
}

func writeReport(t *testing.T, r Report) {
	path := os.Getenv(reportEnv)
	if path == "" {
		return
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Errorf("writing the report: %v", err)
	}
}

// keepEvidence copies the traces of unexplained disagreements out of the
// test's temporary directory, which goes with the test, so that a rare one
// can still be read.
func keepEvidence(t *testing.T, diffs []Disagreement) {
	if len(diffs) == 0 || os.Getenv(keepEnv) != "" {
		return
	}
	dir, err := os.MkdirTemp("", "mcpverdict-calibration-evidence-")
	if err != nil {
		return
	}
	for _, d := range diffs {
		b, err := os.ReadFile(d.Trace)
		if err != nil {
			continue
		}
		name := strings.NewReplacer("/", "_").Replace(d.Server + "-" + d.Run + "-" + filepath.Base(d.Trace))
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	t.Logf("the traces of the unexplained disagreements are kept in %s", dir)
}
