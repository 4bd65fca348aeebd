package baseline

import (
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/provenance"
)

// ServersOf names the servers the report's traces recorded: as check
// identified them, else as each trace's initialize result names it.
func ServersOf(report *judge.Report) []string {
	var names []string
	for _, r := range report.Runs {
		if r.Server != nil {
			names = append(names, r.Server.Name)
		} else {
			names = append(names, provenance.ServerName(r.Trace))
		}
	}
	return names
}
