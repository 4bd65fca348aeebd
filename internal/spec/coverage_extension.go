package spec

import (
	"fmt"
	"strings"
)

// extensionArea is the extension an area belongs to in any revision, or "".
func extensionArea(cells []map[string]AreaCoverage, area string) string {
	for _, c := range cells {
		if a, ok := c[area]; ok && a.Extension != "" {
			return a.Extension
		}
	}
	return ""
}

// writeExtensionRows adds, below the totals, one row per extension area:
// its clauses are not in the totals above, as a report does not count them
// unless the extension is asked for.
func writeExtensionRows(b *strings.Builder, cells []map[string]AreaCoverage, areas []string) {
	for _, area := range areas {
		ext := extensionArea(cells, area)
		if ext == "" {
			continue
		}
		fmt.Fprintf(b, "| %s (extension `%s`) |", area, ext)
		for i := range cells {
			if a, ok := cells[i][area]; ok {
				fmt.Fprintf(b, " %d / %d |", a.Judged, a.Clauses)
			} else {
				b.WriteString(" |")
			}
		}
		b.WriteString("\n")
	}
}
