package exampleserver

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Bounds on the note store, so that no client can grow the server's memory
// without limit.
const (
	maxNotes       = 100
	maxNoteEntries = 100
	maxEntryLength = 1000
)

// notePattern is what a note name may look like. Names are restricted to
// characters that need no escaping in a notes:// URI, so that the URI of a
// note is always "notes://" + name and nothing else.
const notePattern = `^[a-z0-9][a-z0-9_-]{0,63}$`

var validNoteName = regexp.MustCompile(notePattern)

// welcomeNote is the note every new server starts with, so that the note
// resources, the template and completion have something to show at once.
const (
	welcomeNote  = "welcome"
	welcomeEntry = "Notes live in memory: remember adds a line to a note, forget deletes the note."
)

// noteStore keeps named notes, each an ordered list of distinct lines. Lines
// are only ever added (never rewritten), which is what lets remember declare
// itself non-destructive and idempotent truthfully.
type noteStore struct {
	mu    sync.Mutex
	notes map[string][]string
}

func newNoteStore() *noteStore {
	return &noteStore{notes: map[string][]string{welcomeNote: {welcomeEntry}}}
}

// addOutcome says what add did, so callers know which notifications to send.
type addOutcome struct {
	Created bool // the note did not exist before
	Added   bool // the line was new to the note
	Lines   int  // lines in the note afterwards
}

// add appends line to the named note unless the note already holds it.
func (s *noteStore) add(name, line string) (addOutcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines, exists := s.notes[name]
	if slices.Contains(lines, line) {
		return addOutcome{Lines: len(lines)}, nil
	}
	if !exists && len(s.notes) >= maxNotes {
		return addOutcome{}, fmt.Errorf("the store already holds %d notes, the most it keeps; forget one first", maxNotes)
	}
	if len(lines) >= maxNoteEntries {
		return addOutcome{}, fmt.Errorf("note %q already holds %d lines, the most a note keeps; forget it first", name, maxNoteEntries)
	}
	s.notes[name] = append(lines, line)
	return addOutcome{Created: !exists, Added: true, Lines: len(lines) + 1}, nil
}

// remove deletes the named note and reports whether it existed.
func (s *noteStore) remove(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, exists := s.notes[name]
	delete(s.notes, name)
	return exists
}

// text returns the note's lines joined by newlines.
func (s *noteStore) text(name string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines, ok := s.notes[name]
	return strings.Join(lines, "\n"), ok
}

// names returns every note name in sorted order.
func (s *noteStore) names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.notes))
}
