package probe

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
	"github.com/mcpverdict/mcpverdict/internal/probe/sandbox"
)

// caseEvidence is every session run for one tool case.
type caseEvidence struct {
	Case        definition.ToolCase
	Once, Twice []*sessionResult // by run
	// Single and TwoProcess are the concurrent attempts of each mode.
	Single, TwoProcess []*sessionResult
}

// evidence is everything a probe run observed.
type evidence struct {
	Reset     ResetCheck
	Seeded    definition.Snapshot
	Controls  []*sessionResult // by run
	Controls2 []*sessionResult // two-process controls, by run
	Contracts map[string]definition.Contract
	Cases     []*caseEvidence
}

func (r *runner) run(ctx context.Context) (*Report, error) {
	ev := &evidence{}
	ev.Reset, ev.Seeded = r.verifyReset()
	if !ev.Reset.Verified {
		return r.report(ev), nil
	}
	if !r.opts.NoSandbox {
		r.sandbox = sandbox.Available(r.opts.Self)
		if r.sandbox == nil {
			r.sess.sandbox = &sandbox.Wrapper{Self: r.opts.Self}
		}
	} else {
		r.sandbox = fmt.Errorf("the sandbox was turned off (--no-sandbox)")
	}
	r.addPlanned(r.opts.Runs)
	ev.Controls = r.repeat(ctx, r.opts.Runs, func(i int) sessionPlan { return controlPlan(fmt.Sprintf("run%d-control", i+1), 1) })
	contracts, err := r.contractsOf(ev.Controls[0])
	if err != nil {
		return nil, err
	}
	ev.Contracts = contracts
	r.runCases(ctx, ev)
	return r.report(ev), nil
}

// verifyReset seeds two fresh state directories and requires their
// normalized snapshots to be identical. The first becomes the template
// every session's state is copied from: once two seedings are shown to
// agree, a copy of one is the same clean reset, without running the seed
// (a SQL script, say) a thousand times.
func (r *runner) verifyReset() (ResetCheck, definition.Snapshot) {
	var snaps [2]definition.Snapshot
	var dirs [2]string
	for i := range snaps {
		dir, err := os.MkdirTemp(r.scratch, fmt.Sprintf("reset%d-", i+1))
		if err == nil {
			err = r.def.SeedAll(dir)
		}
		if err == nil {
			snaps[i], err = r.def.ObserveAll(dir)
		}
		if err != nil {
			return ResetCheck{Error: err.Error()}, nil
		}
		dirs[i] = dir
	}
	r.template = dirs[1]
	d := definition.DiffSnapshots(snaps[0], snaps[1])
	return ResetCheck{Verified: len(d.Changes) == 0, Differences: capChanges(d.Changes)}, snaps[0]
}

// repeat runs n sessions in parallel (bounded by the pool) and returns
// their results in order.
func (r *runner) repeat(ctx context.Context, n int, plan func(i int) sessionPlan) []*sessionResult {
	out := make([]*sessionResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { out[i] = r.runSession(ctx, plan(i)) })
	}
	wg.Wait()
	return out
}

// contractsOf reads the tools the first control session listed and holds
// every probed case to a listed tool; a server that did not start or
// initialize is an error naming server.command.
func (r *runner) contractsOf(control *sessionResult) (map[string]definition.Contract, error) {
	if control.Err != "" {
		return nil, definition.DefErr(r.def.Path, "server.command", "the server did not start and initialize: %s (trace: %s)", control.Err, firstOr(control.Traces, "none"))
	}
	out := map[string]definition.Contract{}
	for _, page := range control.Pages {
		cs, err := definition.ParseContracts(page)
		if err != nil {
			return nil, definition.DefErr(r.def.Path, "server.command", "the server's tools/list cannot be read: %v", err)
		}
		for _, c := range cs {
			out[c.Tool] = c
		}
	}
	for i, t := range r.def.Tools {
		if _, ok := out[t.Name]; !ok && r.selected(t) {
			return nil, definition.DefErr(r.def.Path, fmt.Sprintf("tools[%d].name", i), "the server lists no tool %q (it lists %v)", t.Name, definition.SortedKeys(out))
		}
	}
	return out, nil
}

func (r *runner) selected(t definition.ToolCase) bool {
	for _, c := range r.cases {
		if c.ID() == t.ID() {
			return true
		}
	}
	return false
}

func firstOr(s []string, def string) string {
	if len(s) == 0 {
		return def
	}
	return s[0]
}

// runCases runs every once, twice and concurrent session of every case,
// and the two-process controls when any concurrent attempt runs, all in
// parallel under the pool.
func (r *runner) runCases(ctx context.Context, ev *evidence) {
	var wg sync.WaitGroup
	concurrent := false
	for _, tc := range r.cases {
		ce := &caseEvidence{Case: tc}
		ev.Cases = append(ev.Cases, ce)
		r.scheduleSequential(ctx, &wg, ce)
		if ev.Contracts[tc.Name].Hint(definition.IdempotentHint).Value == definition.HintTrue {
			concurrent = true
			r.scheduleConcurrent(ctx, &wg, ce)
		}
	}
	if concurrent {
		r.addPlanned(r.opts.Runs)
		wg.Go(func() {
			ev.Controls2 = r.repeat(ctx, r.opts.Runs, func(i int) sessionPlan {
				return controlPlan(fmt.Sprintf("run%d-control-%s", i+1, definition.ModeTwoProcess), 2)
			})
		})
	}
	wg.Wait()
}

// scheduleSequential starts the once and twice sessions of every run.
func (r *runner) scheduleSequential(ctx context.Context, wg *sync.WaitGroup, ce *caseEvidence) {
	id, runs := safeName(ce.Case.ID()), r.opts.Runs
	r.addPlanned(2 * runs)
	wg.Go(func() {
		ce.Once = r.repeat(ctx, runs, func(i int) sessionPlan { return r.callsPlan(fmt.Sprintf("run%d-once-%s", i+1, id), ce.Case, 1) })
	})
	wg.Go(func() {
		ce.Twice = r.repeat(ctx, runs, func(i int) sessionPlan { return r.callsPlan(fmt.Sprintf("run%d-twice-%s", i+1, id), ce.Case, 2) })
	})
}

// scheduleConcurrent starts the concurrent attempts of both modes.
func (r *runner) scheduleConcurrent(ctx context.Context, wg *sync.WaitGroup, ce *caseEvidence) {
	id, n := safeName(ce.Case.ID()), r.opts.ConcurrentAttempts
	r.addPlanned(2 * n)
	wg.Go(func() {
		ce.Single = r.repeat(ctx, n, func(i int) sessionPlan {
			return r.concurrentPlan(fmt.Sprintf("attempt%d-%s-%s", i+1, definition.ModeSingleConnection, id), ce.Case, 1)
		})
	})
	wg.Go(func() {
		ce.TwoProcess = r.repeat(ctx, n, func(i int) sessionPlan {
			return r.concurrentPlan(fmt.Sprintf("attempt%d-%s-%s", i+1, definition.ModeTwoProcess, id), ce.Case, 2)
		})
	})
}
