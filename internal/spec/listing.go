package spec

import (
	"fmt"
	"io"
	"strings"
)

// Filter narrows a registry's clauses, as `mcpverdict requirements` does:
// an empty field lets every clause through.
type Filter struct {
	Area, Level       string
	Checked, Excluded bool
}

// Matches reports whether c passes the filter.
func (f Filter) Matches(c *Clause) bool {
	switch {
	case f.Area != "" && !strings.EqualFold(c.Area, f.Area):
		return false
	case f.Level != "" && !strings.EqualFold(string(c.Level), f.Level):
		return false
	case f.Checked && !c.Judged(), f.Excluded && c.Judged():
		return false
	}
	return true
}

// Select is the registry's clauses that pass f, in registry order.
func (r *Registry) Select(f Filter) []*Clause {
	var out []*Clause
	for _, c := range r.Clauses {
		if f.Matches(c) {
			out = append(out, c)
		}
	}
	return out
}

// WriteList prints one line per clause: ID, level, party, how it is
// judged and the start of its quote, then the count.
func WriteList(w io.Writer, clauses []*Clause) {
	for _, c := range clauses {
		how := "check " + c.Check
		if !c.Judged() {
			how = "excluded"
		}
		fmt.Fprintf(w, "%-9s %-10s %-6s %-40s %s\n", c.ID, c.Level, c.Party, how, clip(c.Quote, 90))
	}
	fmt.Fprintf(w, "%d clause(s)\n", len(clauses))
}

// WriteDetail prints one clause in full: its quote and link, what it
// applies to, and its check or the reason it is excluded.
func WriteDetail(w io.Writer, c *Clause) {
	fmt.Fprintf(w, "%s (%s, %s) binds the %s\n  %q\n  %s\n", c.ID, c.Level, c.Revision, c.Party, c.Quote, c.URL)
	if c.Capability != "" {
		fmt.Fprintf(w, "  applies when capability %s was negotiated\n", c.Capability)
	}
	if c.Transport != "" {
		fmt.Fprintf(w, "  applies over %s only\n", c.Transport)
	}
	if c.Judged() {
		fmt.Fprintf(w, "  judged by check %s\n", c.Check)
	} else {
		fmt.Fprintf(w, "  excluded: %s\n", c.Exclusion)
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
