package spec

import (
	"fmt"
	"sort"
	"strings"
)

// AreaCoverage counts one area's clauses in one revision.
type AreaCoverage struct {
	Area string
	// Extension is the extension the area belongs to, if any.
	Extension string
	Clauses   int
	Judged    int
	Excluded  int
	Gated     int
}

// Coverage counts every area of a registry, sorted by area.
func (r *Registry) Coverage() []AreaCoverage {
	by := map[string]*AreaCoverage{}
	for _, c := range r.Clauses {
		a := by[c.Area]
		if a == nil {
			a = &AreaCoverage{Area: c.Area, Extension: c.Extension}
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

// CoverageMarkdown renders the README's coverage table: one row per area
// and one column per revision, newest first, each cell the judged clauses
// of the area out of its clauses; then a line per revision with its totals
// and any pages still pending.
func CoverageMarkdown() string {
	var regs []*Registry
	for i := len(Revisions) - 1; i >= 0; i-- {
		regs = append(regs, MustLoad(Revisions[i]))
	}
	cells, areas := coverageCells(regs)
	var b strings.Builder
	b.WriteString("Judged clauses out of registered clauses, by area and revision:\n\n| Area |")
	for _, r := range regs {
		fmt.Fprintf(&b, " %s |", r.Revision)
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---:|", len(regs)))
	b.WriteString("\n")
	totals := make([]AreaCoverage, len(regs))
	for _, area := range areas {
		if extensionArea(cells, area) != "" {
			continue
		}
		fmt.Fprintf(&b, "| %s |", area)
		for i := range regs {
			a, ok := cells[i][area]
			if !ok {
				b.WriteString(" |")
				continue
			}
			fmt.Fprintf(&b, " %d / %d |", a.Judged, a.Clauses)
			totals[i].Clauses, totals[i].Judged, totals[i].Excluded = totals[i].Clauses+a.Clauses, totals[i].Judged+a.Judged, totals[i].Excluded+a.Excluded
		}
		b.WriteString("\n")
	}
	b.WriteString("| **all** |")
	for _, t := range totals {
		fmt.Fprintf(&b, " **%d / %d** |", t.Judged, t.Clauses)
	}
	b.WriteString("\n")
	writeExtensionRows(&b, cells, areas)
	b.WriteString("\n")
	for i, r := range regs {
		t := totals[i]
		fmt.Fprintf(&b, "- %s: %d clauses, %d judged (%d%%) by %d distinct checks, %d excluded with a written reason.",
			r.Revision, t.Clauses, t.Judged, 100*t.Judged/max(t.Clauses, 1), r.distinctChecks(), t.Excluded)
		if n := len(r.OutOfScope.Pending); n > 0 {
			fmt.Fprintf(&b, " %d in-scope page(s) not registered yet: %s.", n, pendingList(r))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}

// coverageCells counts each registry's areas, and lists every area any of
// them has, sorted.
func coverageCells(regs []*Registry) ([]map[string]AreaCoverage, []string) {
	cells := make([]map[string]AreaCoverage, len(regs))
	seen := map[string]bool{}
	var areas []string
	for i, r := range regs {
		cells[i] = map[string]AreaCoverage{}
		for _, a := range r.Coverage() {
			cells[i][a.Area] = a
			if !seen[a.Area] {
				seen[a.Area] = true
				areas = append(areas, a.Area)
			}
		}
	}
	sort.Strings(areas)
	return cells, areas
}

func (r *Registry) distinctChecks() int {
	seen := map[string]bool{}
	for _, c := range r.Clauses {
		if c.Judged() && c.Extension == "" {
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
