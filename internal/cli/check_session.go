package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcpverdict/mcpverdict/internal/driver"
	"github.com/mcpverdict/mcpverdict/internal/progress"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// session is one recorded session of a check: what ran, where its trace
// is, and what went wrong driving it.
type session struct {
	name     string // file name without .jsonl: session-stdio-2025-11-25
	trace    string
	revision string
	// probe names the rejection probe the session sends, if it is one: its
	// trace is judged with the verdict scoped to the server, since the
	// driver breaks client rules there on purpose.
	probe string
	// eraProbe marks the stateless session check opens on its own: a
	// server that turns out to speak only handshake revisions is not judged
	// under the stateless one.
	eraProbe bool
	legacy   bool
	problem  error
	notes    []string
}

// judged reports whether the session's trace goes to the judge.
func (s *session) judged() bool { return !s.legacy && hasMessages(s.trace) }

// hasMessages reports whether a trace holds at least one MCP message: a
// server that never started leaves nothing to judge.
func hasMessages(path string) bool {
	events, err := trace.ReadFile(path)
	if err != nil {
		return true // the judge reports the malformed trace itself
	}
	for _, ev := range events {
		if ev.Kind == trace.KindMessage {
			return true
		}
	}
	return false
}

// driveSession records one driven session of t into s.trace.
func (c *Command) driveSession(ctx context.Context, t target, s *session, opts driver.Options, p *progress.Progress) {
	opts.Revision = s.revision
	opts.Progress = func(step string) { p.Step(s.name, step) }
	var res *driver.Result
	err := t.record(ctx, s.trace, func(conn driver.Conn) error {
		var err error
		res, err = driver.Run(ctx, conn, opts)
		return err
	})
	p.Done(s.name)
	if res != nil {
		s.notes = res.Notes
	}
	switch {
	case s.eraProbe && errors.Is(err, driver.ErrLegacyServer):
		s.legacy = true
		s.notes = append(s.notes, fmt.Sprintf("%v: only the handshake revision is judged", err))
		s.retire()
	case err != nil && res != nil && res.NonJSON != "":
		s.problem = fmt.Errorf("the server printed something that is not JSON-RPC (%q); %w", res.NonJSON, err)
	case err != nil:
		s.problem = err
	}
}

// retire renames the trace of an era probe that found a legacy server, so
// that the output directory does not suggest a stateless session was judged.
func (s *session) retire() {
	dir := filepath.Dir(s.trace)
	kept := filepath.Join(dir, "discover-probe-"+filepath.Base(s.trace))
	if os.Rename(s.trace, kept) == nil {
		_ = os.Rename(s.trace+".stderr", kept+".stderr")
		s.trace = kept
	}
}

// runConcurrently runs each job on its own goroutine, at most limit at a
// time, and waits for them all.
func runConcurrently(limit int, jobs []func()) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, limit)
	for _, job := range jobs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			job()
		}()
	}
	wg.Wait()
}
