package action

import (
	"fmt"
	"io"

	"github.com/sethvargo/go-githubactions"

	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// logger writes workflow commands (notices, warnings, errors, groups) to
// the step's log. It never panics: a log that cannot be written is lost,
// and the step's outcome does not depend on it. The values a message
// quotes may come from the server under test (its error, read back from
// the command line's stderr): each string is written visibly
// (wiretext.Visible), so it stays inside its own command; the format's
// own line ends are mcpverdict's and are kept.
type logger struct {
	w io.Writer
}

func (l logger) command(name, title, format string, args ...any) {
	cmd := githubactions.Command{Name: name, Message: fmt.Sprintf(format, visibleArgs(args)...)}
	if title != "" {
		cmd.Properties = githubactions.CommandProperties{"title": title}
	}
	fmt.Fprintln(l.w, cmd.String())
}

func (l logger) notice(format string, args ...any) {
	l.command("notice", "mcpverdict", format, args...)
}

func (l logger) warning(format string, args ...any) {
	l.command("warning", "mcpverdict", format, args...)
}

func (l logger) error(format string, args ...any) {
	l.command("error", "mcpverdict", format, args...)
}

func (l logger) info(format string, args ...any) {
	fmt.Fprintf(l.w, format+"\n", visibleArgs(args)...)
}

func visibleArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out[i] = wiretext.Visible(v)
		case error:
			out[i] = wiretext.Visible(v.Error())
		default:
			out[i] = a
		}
	}
	return out
}

func (l logger) group(title string) { l.command("group", "", "%s", title) }

func (l logger) endGroup() { l.command("endgroup", "", "") }
