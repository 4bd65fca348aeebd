package cli

import (
	"context"

	"github.com/mcpverdict/mcpverdict/internal/driver"
	"github.com/mcpverdict/mcpverdict/internal/progress"
)

// probeParallel bounds how many probe sessions (each its own server
// process, over stdio) run at once.
const probeParallel = 3

// probeRevisions are the revisions to probe: the chosen ones, or with none
// chosen the handshake revision and the stateless one if the server spoke it.
func probeRevisions(chosen []string, driven []*session) []string {
	if len(chosen) > 0 {
		return chosen
	}
	out := []string{driver.Legacy}
	for _, s := range driven {
		if s.revision == driver.Modern && !s.legacy && s.problem == nil {
			out = append(out, driver.Modern)
		}
	}
	return out
}

// probeAll runs every rejection probe of each revision in a session of its
// own.
func (c *Command) probeAll(ctx context.Context, t target, revisions []string, opts driver.Options, outDir string, p *progress.Progress) []*session {
	var list []*session
	var jobs []func()
	for _, rev := range revisions {
		for _, probe := range append(driver.Probes(rev, t.transport()), authProbes(t)...) {
			s := newSession(outDir, t, rev, probe)
			list = append(list, s)
			jobs = append(jobs, func() { c.probeSession(ctx, t, s, probe, opts, p) })
		}
	}
	runConcurrently(probeParallel, jobs)
	return list
}

func (c *Command) probeSession(ctx context.Context, t target, s *session, probe driver.Probe, opts driver.Options, p *progress.Progress) {
	opts.Revision = s.revision
	opts.Progress = func(step string) { p.Step(s.name, step) }
	var res *driver.Result
	err := t.record(ctx, s.trace, func(conn driver.Conn) error {
		var err error
		res, err = driver.RunProbe(ctx, conn, probe, opts)
		return err
	})
	p.Done(s.name)
	if res != nil {
		s.notes = res.Notes
	}
	s.problem = err
}

// authProbes are the probes of a target given a bearer token.
func authProbes(t target) []driver.Probe {
	if h, ok := t.(httpTarget); ok && h.token != "" {
		return driver.AuthProbes()
	}
	return nil
}
