package reporters

import "strings"

// printable drops the control characters a viewer would show as garbage or
// act upon (C0 other than tab, line feed and carriage return; DEL; C1) and
// turns invalid UTF-8 into U+FFFD: findings quote untrusted bytes.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r >= 0x7F && r < 0xA0:
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
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
