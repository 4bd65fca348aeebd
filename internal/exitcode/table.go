package exitcode

import (
	"fmt"
	"strings"
)

// Status is one exit status: its code, a one-word name and what it means.
type Status struct {
	Code    int
	Name    string
	Meaning string
}

// table is the one place the exit statuses are described; the root
// command's help, and so docs/cli/mcpverdict.md, renders it.
var table = [...]Status{
	{OK, "ok", "the verdict is pass (or pass-with-warnings)"},
	{Fail, "fail", "a clause failed (or warned, with --strict), or (check --probe) " +
		"a probe verdict is a VIOLATION, a RESET_UNVERIFIED, or for a fixture other than its truth"},
	{Usage, "usage", "bad invocation, nothing judgeable, a trace that is not a file, a pipe " +
		"or a character device (a directory, a socket), a server that could not be driven, " +
		"a --probe definition that does not load or whose server does not start, " +
		"or an output that could not be written"},
	{Malformed, "malformed", "a malformed trace, or an empty one among several: the report " +
		"names the file, line and problem, and its verdict reads incomplete (the github " +
		"format annotates that file and line)"},
}

// Table returns the exit statuses of the commands that judge, in order of
// code.
func Table() []Status {
	out := make([]Status, len(table))
	copy(out, table[:])
	return out
}

// Lookup returns the table's status for code. It panics on a code the
// table lacks.
func Lookup(code int) Status {
	for _, s := range table {
		if s.Code == code {
			return s
		}
	}
	panic(fmt.Sprintf("exitcode: no exit status %d in the table", code))
}

// Means returns the status code with the narrower meaning one command gives
// it, keeping the table's name. It panics on a code the table lacks: every
// status a command documents is one of the table's.
func Means(code int, meaning string) Status {
	s := Lookup(code)
	s.Meaning = meaning
	return s
}

// width is the column a help text's lines end before.
const width = 80

// Section is the block a command's help ends with: the heading "Exit
// status:", then the statuses as Format renders them.
func Section(statuses ...Status) string {
	return "Exit status:\n\n" + Format(statuses...)
}

// Format renders statuses one line each (code, name, meaning wrapped under
// itself), indented four spaces so that the reference pages in docs/cli/
// show them preformatted, as the terminal does. A blank line must come
// before it for that.
func Format(statuses ...Status) string {
	nameWidth := 0
	for _, s := range statuses {
		nameWidth = max(nameWidth, len(s.Name))
	}
	var b strings.Builder
	for n, s := range statuses {
		if n > 0 {
			b.WriteByte('\n')
		}
		lead := fmt.Sprintf("    %d  %-*s  ", s.Code, nameWidth, s.Name)
		b.WriteString(lead)
		col := len(lead)
		for i, word := range strings.Fields(s.Meaning) {
			switch {
			case i > 0 && col+1+len(word) > width:
				b.WriteString("\n" + strings.Repeat(" ", len(lead)))
				col = len(lead)
			case i > 0:
				b.WriteByte(' ')
				col++
			}
			b.WriteString(word)
			col += len(word)
		}
	}
	return b.String()
}
