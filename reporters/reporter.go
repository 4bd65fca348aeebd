// Package reporters renders a Document (a clause report, the probes run with
// it, or a probe run on its own) in each output format mcpverdict offers. Choosing a format is separate from rendering it: every format is a
// Reporter, found by name.
package reporters

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Options shape how a report is rendered.
type Options struct {
	// All lists every clause, not only those that need attention.
	All bool
	// MaxFindings caps the findings shown per clause in human formats
	// (0 means 20); machine formats never cap.
	MaxFindings int
	// Repo places findings on lines of the checked-out repository, for the
	// formats that point into files (sarif, github); nil leaves them at the
	// trace line, as given.
	Repo *Repository
	// MaxBytes caps the size of formats that have one (markdown: 1 MiB);
	// 0, or more than the format allows, means the format's own cap.
	MaxBytes int
	// Category names this analysis in SARIF (automationDetails.id), one per
	// server, so that several jobs' uploads stand side by side instead of
	// replacing each other; empty means "mcpverdict/".
	Category string
}

// Reporter renders a report in one format.
type Reporter interface {
	// Name is the format's name on the command line.
	Name() string
	Write(w io.Writer, doc *Document, opts Options) error
}

var byName = map[string]Reporter{}

func register(r Reporter) { byName[r.Name()] = r }

// Get returns the reporter for a format name.
func Get(name string) (Reporter, error) {
	r, ok := byName[name]
	if !ok {
		return nil, fmt.Errorf("unknown format %q: choose one of %s", name, strings.Join(Names(), ", "))
	}
	return r, nil
}

// Names lists the formats, sorted.
func Names() []string {
	out := make([]string, 0, len(byName))
	for n := range byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
