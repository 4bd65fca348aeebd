package evidence

import (
	"fmt"
	"io"

	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// WriteText tells, one terminal-safe line each, how every tool compares
// with the lockfile: the names and details are the server's own strings.
func (d *Drift) WriteText(w io.Writer) {
	if len(d.Findings) == 0 {
		fmt.Fprintln(w, wiretext.Visible(fmt.Sprintf("mcpverdict: contract: every tool matches %s (recipe %s)", d.Lockfile, d.Recipe)))
		return
	}
	for _, f := range d.Findings {
		where := ""
		if f.Location != nil {
			where = fmt.Sprintf(" (%s:%d)", f.Location.Path, f.Location.Line)
		}
		fmt.Fprintln(w, wiretext.Visible(fmt.Sprintf("mcpverdict: contract: %s: %s%s [%s]", f.Tool, FindingMessage(f), where, f.Check)))
	}
}
