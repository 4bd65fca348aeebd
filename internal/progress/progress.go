// Package progress tells a user on stderr what a long command is waiting
// for: each step of a session that runs longer than a second, once, and
// notes that must always be seen, every line made safe for a terminal.
package progress

import (
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// slowStep is how long a step runs before check says on stderr what it is
// waiting for; a quick check stays quiet.
const slowStep = time.Second

// Progress reports on stderr every step of a session that has been running
// longer than slowStep, once per step.
type Progress struct {
	w       io.Writer
	mu      sync.Mutex
	current map[string]*stepState
	stop    chan struct{}
	stopped sync.WaitGroup
}

type stepState struct {
	step    string
	started time.Time
	shown   bool
}

// New starts reporting on w until Close.
func New(w io.Writer) *Progress {
	p := &Progress{w: &lockedWriter{w: w}, current: map[string]*stepState{}, stop: make(chan struct{})}
	p.stopped.Add(1)
	go p.watch()
	return p
}

// Step records that session has moved on to step.
func (p *Progress) Step(session, step string) {
	p.mu.Lock()
	p.current[session] = &stepState{step: step, started: time.Now()}
	p.mu.Unlock()
}

// Done records that session has ended.
func (p *Progress) Done(session string) {
	p.mu.Lock()
	delete(p.current, session)
	p.mu.Unlock()
}

// maxNote bounds a note's line; the whole of what the server said is in
// the trace.
const maxNote = 2000

// Note prints a line at once, for what the user should always see.
func (p *Progress) Note(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	// A note quotes what the server said: one line, shown as it was.
	fmt.Fprintln(p.w, wiretext.Shorten(wiretext.Visible(fmt.Sprintf("mcpverdict: "+format, args...)), maxNote))
}

// Close stops the reporting.
func (p *Progress) Close() {
	close(p.stop)
	p.stopped.Wait()
}

// Writer is the stderr the reports go to, safe to share with them.
func (p *Progress) Writer() io.Writer { return p.w }

func (p *Progress) watch() {
	defer p.stopped.Done()
	tick := time.NewTicker(slowStep / 4)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-tick.C:
			p.showSlow(now)
		}
	}
}

func (p *Progress) showSlow(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	names := make([]string, 0, len(p.current))
	for name := range p.current {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		st := p.current[name]
		if !st.shown && now.Sub(st.started) >= slowStep {
			st.shown = true
			fmt.Fprintln(p.w, wiretext.Visible(fmt.Sprintf("mcpverdict: %s: %s ...", name, st.step)))
		}
	}
}

// lockedWriter serialises writes to stderr, which the progress lines, the
// notes and a --client's own output share.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
