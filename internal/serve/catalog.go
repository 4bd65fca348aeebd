package serve

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// Session is one trace found in the folders served, judged on its own.
type Session struct {
	// Name is the trace's path as the folder given and the path inside it.
	Name string
	// Path is where the trace was read.
	Path   string
	Events []trace.Event
	Report *judge.Report
	// Unreadable says why the trace could not be read whole (a line that
	// is not an event, and which); such a session is listed, not served.
	Unreadable string
	// Ledger is the head of the ledger beside the trace, when there is one.
	Ledger *reporters.Ledger
}

// Verdict is the session's verdict, or "unreadable".
func (s *Session) Verdict() string {
	if s.Unreadable != "" {
		return "unreadable"
	}
	return string(s.Report.Verdict)
}

// Failed counts the clauses that failed.
func (s *Session) Failed() int {
	if s.Report == nil {
		return 0
	}
	return s.Report.Totals.Fail
}

// Document is what the session's page renders: the html report of this
// trace alone, its timeline read from memory.
func (s *Session) Document() *reporters.Document {
	doc := reporters.ForClauses(s.Report)
	doc.Ledger = s.Ledger
	events := s.Events
	doc.ReadTrace = func(string) ([]trace.Event, error) { return events, nil }
	return doc
}

// Catalog reads every trace (*.jsonl) under dirs, in name order, and
// judges each. It never writes: a folder it cannot read is an error, a
// trace it cannot read is a session marked unreadable.
func Catalog(dirs []string, opts judge.Options) ([]*Session, error) {
	var out []*Session
	for _, dir := range dirs {
		paths, err := traces(dir)
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			out = append(out, load(dir, p, opts))
		}
	}
	return out, nil
}

func traces(dir string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != dir && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read the folder %s: %w", dir, err)
	}
	sort.Strings(paths)
	return paths, nil
}

func load(dir, path string, opts judge.Options) *Session {
	s := &Session{Name: path, Path: path}
	events, err := trace.ReadFile(path)
	if err != nil {
		var pe *trace.ParseError
		if errors.As(err, &pe) {
			s.Unreadable = fmt.Sprintf("line %d: %s", pe.Line, pe.Problem)
		} else {
			s.Unreadable = err.Error()
		}
		return s
	}
	s.Events = events
	i := 0
	next := func() (*trace.Event, error) {
		if i == len(events) {
			return nil, io.EOF
		}
		i++
		return &events[i-1], nil
	}
	s.Report = judge.Judge([]judge.Input{{Name: path, Next: next}}, opts)
	s.Ledger = ledgerBeside(filepath.Dir(path))
	return s
}

// ledgerBeside reads ledger.head in the trace's folder, as check leaves it.
func ledgerBeside(dir string) *reporters.Ledger {
	head := filepath.Join(dir, "ledger.head")
	b, err := os.ReadFile(head)
	if err != nil {
		return nil
	}
	return reporters.LedgerAt(strings.TrimSpace(string(b)), head)
}
