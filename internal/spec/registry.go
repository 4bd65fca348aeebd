package spec

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Revisions lists the specification revisions this build judges, oldest first.
var Revisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// staged lists revisions whose registries are written and held to the
// registry tests (quotes, completeness, unique ids, known checks) but not
// judged yet: Load refuses them until they join Revisions, which waits for
// the judge's corpus to hold conforming traces of them.
var staged = []string{}

// registered lists every revision with a registry in the build: the judged
// ones, then the staged ones.
func registered() []string { return append(append([]string(nil), Revisions...), staged...) }

// Newest is the revision a trace that declares none is judged under.
func Newest() string { return Revisions[len(Revisions)-1] }

// NewestHandshake is the newest revision whose sessions open with an
// initialize handshake; later ones declare their revision per request.
func NewestHandshake() string { return "2025-11-25" }

// KnownRevision reports whether this build has a registry for rev.
func KnownRevision(rev string) bool { return contains(Revisions, rev) }

//go:embed registry
var data embed.FS

// Registry holds the clauses of one revision in a stable order.
type Registry struct {
	Revision string
	Clauses  []*Clause
	byID     map[string]*Clause
	// OutOfScope lists the normative sentences and whole pages the
	// registry deliberately leaves out, each with its reason.
	OutOfScope OutOfScope
}

// OutOfScope is the explicit list of what a revision's registry omits.
type OutOfScope struct {
	Pages     []ScopedPage     `toml:"page"`
	Sentences []ScopedSentence `toml:"sentence"`
	// Pending lists in-scope pages whose clauses are not registered yet.
	// They are reported, never hidden: the README's coverage table and the
	// completeness test name them.
	Pending []ScopedPage `toml:"pending"`
}

// ScopedPage is a whole spec page left out, with why.
type ScopedPage struct {
	Path   string `toml:"path"`
	Reason string `toml:"reason"`
}

// ScopedSentence is one normative sentence of an in-scope page left out.
type ScopedSentence struct {
	Page   string `toml:"page"`
	Quote  string `toml:"quote"`
	Reason string `toml:"reason"`
}

// ByID returns the clause with id, or nil.
func (r *Registry) ByID(id string) *Clause { return r.byID[id] }

type dataFile struct {
	Area      string    `toml:"area"`
	Extension string    `toml:"extension"`
	Clauses   []*Clause `toml:"clause"`
}

var (
	loadOnce sync.Once
	loaded   map[string]*Registry
	loadErr  error
)

// Load returns the registry of rev. The data is embedded; an error means the
// build itself is broken, and tests catch it first.
func Load(rev string) (*Registry, error) {
	if !KnownRevision(rev) {
		return nil, fmt.Errorf("unknown revision %q: this build knows %s", rev, strings.Join(Revisions, ", "))
	}
	return loadRegistered(rev)
}

// MustLoad is Load for callers that have already checked rev is known.
func MustLoad(rev string) *Registry {
	r, err := Load(rev)
	if err != nil {
		panic(err)
	}
	return r
}

// loadRegistered returns the registry of any registered revision, staged
// ones included, for the tests that hold every registry to the spec.
func loadRegistered(rev string) (*Registry, error) {
	loadOnce.Do(func() { loaded, loadErr = loadAll(data) })
	if loadErr != nil {
		return nil, loadErr
	}
	r, ok := loaded[rev]
	if !ok {
		return nil, fmt.Errorf("no registry for revision %q", rev)
	}
	return r, nil
}

func loadAll(fsys fs.FS) (map[string]*Registry, error) {
	out := map[string]*Registry{}
	for _, rev := range registered() {
		r, err := loadRevision(fsys, rev)
		if err != nil {
			return nil, err
		}
		out[rev] = r
	}
	return out, nil
}

func loadRevision(fsys fs.FS, rev string) (*Registry, error) {
	dir := path.Join("registry", rev)
	names, err := fs.Glob(fsys, dir+"/*.toml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	r := &Registry{Revision: rev, byID: map[string]*Clause{}}
	for _, name := range names {
		if err := r.loadFile(fsys, name); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(r.Clauses, func(i, j int) bool { return lessID(r.Clauses[i].ID, r.Clauses[j].ID) })
	return r, nil
}

func (r *Registry) loadFile(fsys fs.FS, name string) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	switch base := path.Base(name); {
	case base == "out-of-scope.toml":
		return decodeStrict(b, name, &r.OutOfScope)
	case strings.HasPrefix(base, "pending-"):
		var p OutOfScope
		err := decodeStrict(b, name, &p)
		r.OutOfScope.Pending = append(r.OutOfScope.Pending, p.Pending...)
		return err
	}
	var f dataFile
	if err := decodeStrict(b, name, &f); err != nil {
		return err
	}
	for i, c := range f.Clauses {
		c.Area, c.Extension, c.Revision, c.Source = f.Area, f.Extension, r.Revision, fmt.Sprintf("%s clause %d", name, i+1)
		if err := c.validate(); err != nil {
			return err
		}
		if prev, dup := r.byID[c.ID]; dup {
			return fmt.Errorf("%s: id %s is already used by %s", c.Source, c.ID, prev.Source)
		}
		r.byID[c.ID] = c
		r.Clauses = append(r.Clauses, c)
	}
	return nil
}

func decodeStrict(b []byte, name string, v any) error {
	md, err := toml.NewDecoder(bytes.NewReader(b)).Decode(v)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		return fmt.Errorf("%s: unknown key %q", name, undecoded[0].String())
	}
	return nil
}

// lessID orders ids by area, then number.
func lessID(a, b string) bool { return a < b }
