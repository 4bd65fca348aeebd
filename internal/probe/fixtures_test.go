package probe_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/probe"
)

// fixtureDir holds the fixture definitions.
const fixtureDir = "../../corpus/probe/fixtures"

// minPairs is the floor for (tool, test) pairs held to a truth.
const minPairs = 72

// fullSuite runs the fixture suite as the README states it: three runs,
// twenty concurrent attempts per mode. Without MCPVERDICT_PROBE_FULL the
// suite takes three attempts per mode, enough for every expected verdict
// (a racing tool diverges in nearly every overlapped attempt) at a fraction
// of the time, so scripts/test stays quick.
func fixtureOptions() probe.Options {
	o := probe.Options{Runs: 3, ConcurrentAttempts: 3}
	if os.Getenv("MCPVERDICT_PROBE_FULL") != "" {
		o.ConcurrentAttempts = probe.DefaultConcurrentAttempts
	}
	return o
}

func fixtureDefinitions(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(fixtureDir, "*", "probe.toml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixture definitions under %s: %v", fixtureDir, err)
	}
	sort.Strings(paths)
	return paths
}

// TestFixturesMatchTheirTruth runs every fixture definition, sessions of
// all fixtures in parallel bounded by the CPUs, and holds each (tool, test)
// to the verdict its definition records.
func TestFixturesMatchTheirTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hundreds of server sessions")
	}
	self := mcpverdictBinary(t)
	sandboxErr := probe.SandboxCheck(self)
	if sandboxErr != nil {
		t.Logf("open-world expectations are not checked: %v", sandboxErr)
	}
	pool := probe.NewPool(runtime.NumCPU())
	start := time.Now()
	var mu sync.Mutex
	pairs, matched := 0, 0
	var wg sync.WaitGroup
	for _, path := range fixtureDefinitions(t) {
		wg.Go(func() {
			p, m := runFixture(t, path, self, pool, sandboxErr == nil)
			mu.Lock()
			pairs, matched = pairs+p, matched+m
			mu.Unlock()
		})
	}
	wg.Wait()
	t.Logf("%d/%d (tool, test) pairs matched in %s", matched, pairs, time.Since(start).Round(time.Millisecond))
	if pairs < minPairs {
		t.Errorf("only %d (tool, test) pairs are held to a truth; the floor is %d", pairs, minPairs)
	}
}

func runFixture(t *testing.T, path, self string, pool *probe.Pool, sandboxed bool) (pairs, matched int) {
	def, err := probe.Load(path)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return 0, 0
	}
	opts := fixtureOptions()
	opts.Pool, opts.Self = pool, self
	rep, err := probe.Run(context.Background(), def, opts)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return 0, 0
	}
	checkReportSchema(t, rep)
	for _, tool := range rep.Tools {
		for _, tr := range tool.Tests {
			if tr.Expected == "" {
				t.Errorf("%s: %s %s records no expected verdict", def.Name, tool.Tool, tr.Test)
				continue
			}
			if tr.Test == probe.TestOpenWorld && !sandboxed {
				continue
			}
			pairs++
			if *tr.Matched {
				matched++
				continue
			}
			t.Errorf("%s: %s %s: expected %s, got %s:%s (%s) secondary %v", def.Name, tool.Tool, tr.Test, tr.Expected, tr.Verdict, tr.Primary, tr.Detail, tr.Secondary)
		}
	}
	return pairs, matched
}
