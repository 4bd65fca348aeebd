package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
	"github.com/mcpverdict/mcpverdict/internal/probe/sandbox"
)

// sessionResult is what one session (one or two server processes over one
// freshly seeded state) showed.
type sessionResult struct {
	Label  string
	Traces []string
	// Final is the state after every server exited.
	Final definition.Snapshot
	// Initialize and Pages are the first server's initialize result and
	// tools/list results, as received.
	Initialize json.RawMessage
	Pages      []json.RawMessage
	Calls      []CallOutcome
	// Net holds the connection attempts of every process; FirstCall is
	// when the first tools/call was sent (zero for a control session).
	Net       []sandbox.NetAttempt
	FirstCall time.Time
	// RTT is each process's ping round trip, for concurrent attempts.
	RTT []time.Duration
	// Err says why the session failed (start, handshake, observation);
	// Notes are problems that did not end it (an exit status).
	Err   string
	Notes []string
}

// sessionPlan is what a session does between handshake and exit.
type sessionPlan struct {
	label     string
	processes int
	// sandboxed sessions run their servers in the network sandbox (when
	// there is one): the control, once and twice sessions, whose
	// connection attempts are the open-world evidence. Concurrent
	// attempts judge state only and skip its cost.
	sandboxed bool
	act       func(ctx context.Context, srvs []*server, res *sessionResult)
}

// runSession seeds a fresh state directory, starts the servers over it,
// initializes them, acts, lets them exit and observes the state.
func (r *runner) runSession(ctx context.Context, plan sessionPlan) *sessionResult {
	r.opts.Pool.acquire()
	defer r.opts.Pool.release()
	res := &sessionResult{Label: plan.label}
	defer r.finished(plan.label, res)
	stateDir, err := r.freshState(plan.label)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	defer os.RemoveAll(stateDir)
	srvs, err := r.startAll(ctx, plan, stateDir, res)
	if err == nil {
		plan.act(ctx, srvs, res)
	} else {
		res.Err = err.Error()
	}
	r.stopAll(srvs, res)
	if res.Final, err = r.def.ObserveAll(stateDir); err != nil && res.Err == "" {
		res.Err = err.Error()
	}
	return res
}

// freshState makes a state directory holding a copy of the verified
// reset.
func (r *runner) freshState(label string) (string, error) {
	dir, err := os.MkdirTemp(r.scratch, "state-"+safeName(label)+"-")
	if err != nil {
		return "", err
	}
	return dir, definition.CopyTree(r.template, dir)
}

// startAll starts the plan's servers and initializes them together.
func (r *runner) startAll(ctx context.Context, plan sessionPlan, stateDir string, res *sessionResult) ([]*server, error) {
	var srvs []*server
	for p := range plan.processes {
		name := safeName(plan.label)
		if plan.processes > 1 {
			name += fmt.Sprintf("-p%d", p+1)
		}
		s, err := startServer(ctx, r.sess, plan.sandboxed, stateDir, filepath.Join(r.traceDir, name+".jsonl"))
		if err != nil {
			return srvs, err
		}
		srvs = append(srvs, s)
		res.Traces = append(res.Traces, s.tracePath)
	}
	pages := make([][]json.RawMessage, len(srvs))
	errs := make([]error, len(srvs))
	var wg sync.WaitGroup
	for i, s := range srvs {
		wg.Go(func() { pages[i], errs[i] = s.handshake(ctx) })
	}
	wg.Wait()
	res.Initialize, res.Pages = srvs[0].initialize, pages[0]
	for _, err := range errs {
		if err != nil {
			return srvs, err
		}
	}
	return srvs, nil
}

// stopAll closes every server, waits for it to exit and collects what its
// sandbox caught.
func (r *runner) stopAll(srvs []*server, res *sessionResult) {
	for _, s := range srvs {
		if err := s.close(); err != nil {
			res.Notes = append(res.Notes, err.Error())
		}
		if s.netLog == "" {
			continue
		}
		attempts, err := sandbox.ReadNetLog(s.netLog)
		if err != nil {
			res.Notes = append(res.Notes, "cannot read the sandbox log: "+err.Error())
		}
		res.Net = append(res.Net, attempts...)
	}
}

// safeName makes a label usable as a file name.
func safeName(label string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, label)
}

// The session plans.

func controlPlan(label string, processes int) sessionPlan {
	return sessionPlan{label: label, processes: processes, sandboxed: processes == 1, act: func(context.Context, []*server, *sessionResult) {}}
}

// callsPlan calls the tool n times in a row on one connection.
func (r *runner) callsPlan(label string, tc definition.ToolCase, n int) sessionPlan {
	return sessionPlan{label: label, processes: 1, sandboxed: true, act: func(ctx context.Context, srvs []*server, res *sessionResult) {
		for range n {
			args := r.argsFor(tc, srvs[0])
			if res.FirstCall.IsZero() {
				res.FirstCall = time.Now()
			}
			res.Calls = append(res.Calls, srvs[0].call(ctx, tc.Name, args, nil))
		}
	}}
}

// concurrentPlan puts two calls in flight at once: both on one connection
// (processes 1) or one on each of two servers sharing the store
// (processes 2). Each connection's ping round trip is measured first, so
// the overlap can be told from transit time.
func (r *runner) concurrentPlan(label string, tc definition.ToolCase, processes int) sessionPlan {
	return sessionPlan{label: label, processes: processes, act: func(ctx context.Context, srvs []*server, res *sessionResult) {
		for _, s := range srvs {
			rtt, err := s.ping(ctx)
			if err != nil {
				res.Err = "ping: " + err.Error()
				return
			}
			res.RTT = append(res.RTT, rtt)
		}
		release := make(chan struct{})
		outcomes := make([]CallOutcome, 2)
		var wg sync.WaitGroup
		for i := range 2 {
			s := srvs[i%len(srvs)]
			args := r.argsFor(tc, s)
			wg.Go(func() { outcomes[i] = s.call(ctx, tc.Name, args, release) })
		}
		res.FirstCall = time.Now()
		close(release)
		wg.Wait()
		res.Calls = outcomes
	}}
}

// argsFor expands the case's arguments for the server's state directory.
func (r *runner) argsFor(tc definition.ToolCase, s *server) map[string]any {
	return r.exp.Arguments(tc.Arguments, s.stateDir)
}
