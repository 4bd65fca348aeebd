// Package calibrate runs the official MCP conformance suite through
// mcpverdict's recording proxy, one trace per scenario, judges every trace
// and compares the two verdicts both ways.
package calibrate

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"
)

// suiteRun is one run of the official suite.
type suiteRun struct {
	// Name identifies the run in the ledger: the release, and the
	// requirements set when it is not the default active suite.
	Name    string
	Version string
	Args    []string
}

// scenario is what one scenario left: the suite's checks and our trace.
type scenario struct {
	Name   string
	Trace  string
	Checks []suiteCheck
	// Unreadable: the suite left the scenario's folder without a readable
	// checks.json (it stopped mid-scenario), so there is no verdict of the
	// suite's to compare with.
	Unreadable bool
}

// suiteCheck is one check of the suite's checks.json.
type suiteCheck struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

// failed reports whether the suite failed the scenario.
func (s scenario) failed() []suiteCheck {
	var out []suiteCheck
	for _, c := range s.Checks {
		if c.Status == "FAILURE" {
			out = append(out, c)
		}
	}
	return out
}

// suiteTimeout bounds one run of the suite.
const suiteTimeout = 5 * time.Minute

// suiteEnv is what running the suite needs.
type suiteEnv struct {
	node, script, mcpverdict string
}

// runSuite runs the suite against upstream through the switchboard and
// returns its scenarios, ordered by name. The suite's own output goes to
// suite.log in dir.
func runSuite(env suiteEnv, run suiteRun, upstream, dir string) ([]scenario, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(dir, "suite.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	sb := newSwitchboard(env.mcpverdict, upstream, dir, logFile)
	url, stopRouter, err := serve(sb)
	if err != nil {
		return nil, err
	}
	results := filepath.Join(dir, "results")
	args := append([]string{"--require", preload(), env.script, "server", "--url", url, "-o", results}, run.Args...)
	runErr := runAnnounced(env.node, args, sb, logFile)
	traces := sb.finish()
	stopRouter()
	if runErr != nil {
		return nil, fmt.Errorf("conformance %s: %w (see %s)", run.Name, runErr, logFile.Name())
	}
	return collect(results, traces)
}

// preload is scenario.cjs, next to this file.
func preload() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "scenario.cjs")
}

// serve puts the switchboard on a loopback port.
func serve(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}
	go srv.Serve(ln)
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
	return "http://" + ln.Addr().String() + "/mcp", stop, nil
}

// runAnnounced runs the suite with the scenario channel of scenario.cjs
// open on fds 3 and 4, starting a recorder for each scenario it announces.
func runAnnounced(node string, args []string, sb *switchboard, log *os.File) error {
	announceR, announceW, err := os.Pipe()
	if err != nil {
		return err
	}
	ackR, ackW, err := os.Pipe()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.ExtraFiles = []*os.File{announceW, ackR}
	cmd.Env = append(os.Environ(), "MCPVERDICT_SCENARIO_OUT=3", "MCPVERDICT_SCENARIO_IN=4")
	if err := cmd.Start(); err != nil {
		return err
	}
	announceW.Close()
	ackR.Close()
	go answerAnnouncements(announceR, ackW, sb, log)
	err = cmd.Wait()
	ackW.Close()
	announceR.Close()
	if ctx.Err() != nil {
		return fmt.Errorf("the suite ran longer than %s", suiteTimeout)
	}
	if _, ok := err.(*exec.ExitError); ok {
		return nil // the suite exits 1 when a scenario failed: that is data
	}
	return err
}

func answerAnnouncements(announce *os.File, ack *os.File, sb *switchboard, log *os.File) {
	sc := bufio.NewScanner(announce)
	for sc.Scan() {
		if err := sb.start(sc.Text()); err != nil {
			fmt.Fprintf(log, "calibration: %v\n", err)
		}
		if _, err := ack.Write([]byte{'\n'}); err != nil {
			return
		}
	}
}

// resultDir matches the suite's per-scenario result directory:
// server-SCENARIO-2026-11-30T00-06-32-680Z.
var resultDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)

// collect pairs each scenario's checks.json with its trace.
func collect(results string, traces map[string]string) ([]scenario, error) {
	entries, err := os.ReadDir(results)
	if err != nil {
		return nil, fmt.Errorf("the suite wrote no results: %w", err)
	}
	var out []scenario
	var lost []string
	for _, e := range entries {
		m := resultDir.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		var checks []suiteCheck
		b, err := os.ReadFile(filepath.Join(results, e.Name(), "checks.json"))
		unreadable := err != nil || json.Unmarshal(b, &checks) != nil
		if unreadable {
			lost = append(lost, e.Name())
		}
		out = append(out, scenario{Name: m[1], Trace: traces[m[1]], Checks: checks, Unreadable: unreadable})
	}
	if len(out) > 0 && len(lost) == len(out) {
		return nil, fmt.Errorf("no scenario left a readable checks.json (%s, …)", lost[0])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// describeChecks lists failed checks for a message.
func describeChecks(checks []suiteCheck) string {
	var parts []string
	for _, c := range checks {
		parts = append(parts, fmt.Sprintf("%s: %s", c.ID, c.ErrorMessage))
	}
	return strings.Join(parts, "; ")
}
