package spec

import (
	"fmt"
	"sort"
	"strings"
)

// AreaCoverage counts one area's clauses in one revision.
type AreaCoverage struct {
	Area     string
	Clauses  int
	Judged   int
	Excluded int
	Gated    int
}

// Coverage counts every area of a registry, sorted by area.
func (r *Registry) Coverage() []AreaCoverage {
	by := map[string]*AreaCoverage{}
	for _, c := range r.Clauses {
		a := by[c.Area]
		if a == nil {
			a = &AreaCoverage{Area: c.Area}
			by[c.Area] = a
		}
		a.Clauses++
		if c.Judged() {
			a.Judged++
		} else {
			a.Excluded++
		}
		if c.Capability != "" {
			a.Gated++
		}
	}
	out := make([]AreaCoverage, 0, len(by))
	for _, a := range by {
		out = append(out, *a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Area < out[j].Area })
	return out
}

// CoverageMarkdown renders the README's coverage table: one table per
// revision, newest first, with its totals and any pages still pending.
func CoverageMarkdown() string {
	var b strings.Builder
	for i := len(Revisions) - 1; i >= 0; i-- {
		writeRevisionCoverage(&b, MustLoad(Revisions[i]))
	}
	return b.String()
}

func writeRevisionCoverage(b *strings.Builder, r *Registry) {
	fmt.Fprintf(b, "**%s**\n\n| Area | Clauses | Judged | Excluded | Capability-gated |\n|---|---:|---:|---:|---:|\n", r.Revision)
	var t AreaCoverage
	for _, a := range r.Coverage() {
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d |\n", a.Area, a.Clauses, a.Judged, a.Excluded, a.Gated)
		t.Clauses, t.Judged, t.Excluded, t.Gated = t.Clauses+a.Clauses, t.Judged+a.Judged, t.Excluded+a.Excluded, t.Gated+a.Gated
	}
	fmt.Fprintf(b, "| **all** | **%d** | **%d** | **%d** | **%d** |\n\n", t.Clauses, t.Judged, t.Excluded, t.Gated)
	fmt.Fprintf(b, "%d clauses: %d judged by %d distinct checks, %d excluded with a written reason.", t.Clauses, t.Judged, r.distinctChecks(), t.Excluded)
	if n := len(r.OutOfScope.Pending); n > 0 {
		fmt.Fprintf(b, " %d in-scope page(s) not registered yet: %s.", n, pendingList(r))
	}
	b.WriteString("\n\n")
}

func (r *Registry) distinctChecks() int {
	seen := map[string]bool{}
	for _, c := range r.Clauses {
		if c.Judged() {
			seen[c.Check] = true
		}
	}
	return len(seen)
}

func pendingList(r *Registry) string {
	paths := make([]string, len(r.OutOfScope.Pending))
	for i, p := range r.OutOfScope.Pending {
		paths[i] = "`" + p.Path + "`"
	}
	return strings.Join(paths, ", ")
}
