package reporters

import (
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// printable writes the characters a viewer would show as garbage or act
// upon visibly (wiretext.Visible: C0 controls other than tab, DEL, C1,
// invisible format characters, bytes that are not UTF-8), line by line:
// the line ends of text the reporter composed are kept. Findings quote
// untrusted bytes.
func printable(s string) string {
	if !strings.Contains(s, "\n") {
		return wiretext.Visible(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = wiretext.Visible(l)
	}
	return strings.Join(lines, "\n")
}

// xmlSafe keeps only the characters XML 1.0 allows (§2.2): control
// characters other than tab, newline and carriage return cannot appear in
// an XML document even escaped, so a finding quoting one would make the
// whole file unreadable.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 0xD800 && r < 0xE000, r == 0xFFFE, r == 0xFFFF:
			return -1
		}
		return r
	}, printable(s))
}

// markdownText escapes text so that it renders as written: no markup, no
// HTML, no table-cell break, on one line.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "|", `\|`, "#", `\#`,
	"\r\n", " ", "\n", " ", "\r", " ",
)

func markdownText(s string) string { return markdownEscaper.Replace(printable(s)) }

// markdownCode shows s as inline code; a backtick inside would end the code
// span (and a pipe would end a table cell), so such text is shown as
// escaped text instead.
func markdownCode(s string) string {
	if s == "" || strings.ContainsAny(s, "`\n\r|") || printable(s) != s {
		return markdownText(s)
	}
	return "`" + s + "`"
}
