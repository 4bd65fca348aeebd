package evidence

import "github.com/mcpverdict/mcpverdict/internal/toolsource"

// AttachLocations sets each finding's Location to the line of the
// repository under root that declares its tool, when one does (see package
// toolsource for how a declaration is recognised).
func AttachLocations(findings []Finding, root string) {
	ix := toolsource.New(root)
	for i := range findings {
		if findings[i].Tool == "" {
			continue
		}
		if path, line, ok := ix.Find(findings[i].Tool); ok {
			findings[i].Location = &Location{Path: path, Line: line}
		}
	}
}
