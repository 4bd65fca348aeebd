package reporters

import (
	"fmt"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// JobRow is one job of a merged report (mcpverdict merge): its name, the
// servers its runs recorded, its verdict and totals, and its ledger.
type JobRow struct {
	Name    string        `json:"name"`
	Servers []string      `json:"servers"`
	Verdict judge.Verdict `json:"verdict"`
	Totals  judge.Totals  `json:"totals"`
	// Head is the job's ledger head, empty when it wrote none; Signed says
	// a Sigstore bundle of it came with the job.
	Head   string `json:"ledger_head,omitempty"`
	Signed bool   `json:"signed,omitempty"`
}

// visibleJobs is the rows with every string from a job's folder or report
// made visible, for the formats a person reads.
func visibleJobs(rows []JobRow) []JobRow {
	out := make([]JobRow, len(rows))
	for i, r := range rows {
		r.Name, r.Verdict, r.Head = wiretext.Visible(r.Name), judge.Verdict(wiretext.Visible(string(r.Verdict))), wiretext.Visible(r.Head)
		r.Servers = append([]string(nil), r.Servers...)
		for k := range r.Servers {
			r.Servers[k] = wiretext.Visible(r.Servers[k])
		}
		out[i] = r
	}
	return out
}

// jobsMarkdown is the job summary's table of jobs, a row per job; every
// string from a job's folder or report is escaped for a table cell.
func jobsMarkdown(rows []JobRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Jobs (%d)\n\n| job | server | verdict | pass | fail | warn | ledger head |\n|---|---|---|--:|--:|--:|---|\n", len(rows))
	for _, r := range rows {
		servers := make([]string, len(r.Servers))
		for i, s := range r.Servers {
			servers[i] = markdownText(s)
		}
		fmt.Fprintf(&b, "| %s | %s | %s %s | %d | %d | %d | %s |\n", markdownText(r.Name), strings.Join(servers, ", "),
			verdictIcons[r.Verdict], markdownText(string(r.Verdict)), r.Totals.Pass, r.Totals.Fail, r.Totals.Warn, ledgerCell(r))
	}
	b.WriteString("\n")
	return b.String()
}

func ledgerCell(r JobRow) string {
	if r.Head == "" {
		return "none"
	}
	cell := markdownCode(r.Head)
	if r.Signed {
		cell += " (signed)"
	}
	return cell
}

// jobsText is the table of jobs for a terminal, a line per job.
func jobsText(rows []JobRow) string {
	if len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "jobs: %d\n", len(rows))
	for _, r := range visibleJobs(rows) {
		led := "no ledger"
		if r.Head != "" {
			led = "ledger head " + r.Head
			if r.Signed {
				led += " (signed)"
			}
		}
		servers := strings.Join(r.Servers, ", ")
		if servers == "" {
			servers = "no server named"
		}
		fmt.Fprintf(&b, "  %s: %s: %s (%d pass, %d fail, %d warn), %s\n", r.Name, servers, r.Verdict,
			r.Totals.Pass, r.Totals.Fail, r.Totals.Warn, led)
	}
	return b.String()
}
