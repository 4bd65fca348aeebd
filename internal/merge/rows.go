package merge

import (
	"slices"

	"github.com/mcpverdict/mcpverdict/reporters"
)

// Rows is a row per job for the reports' table of jobs.
func Rows(jobs []*Job) []reporters.JobRow {
	rows := make([]reporters.JobRow, len(jobs))
	for i, j := range jobs {
		rows[i] = reporters.JobRow{Name: j.Name, Servers: servers(j), Verdict: j.Report.Verdict, Totals: j.Report.Totals,
			Head: j.Head, Signed: j.Bundle != nil}
	}
	return rows
}

// servers are the servers a job's runs recorded, as each named itself in
// its initialize (or server/discover) result, each once.
func servers(j *Job) []string {
	out := []string{}
	for _, r := range j.Report.Runs {
		if r.Server == nil || r.Server.Name == "" {
			continue
		}
		name := r.Server.Name
		if r.Server.Version != "" {
			name += " " + r.Server.Version
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}
