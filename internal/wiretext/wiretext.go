// Package wiretext is the one rule for printing text that came from the
// wire: a server's or a client's strings, a trace's bytes. The peer under
// test chooses them, and mcpverdict prints them where people and programs
// read lines: a terminal, a CI log whose lines the Actions runner reads as
// workflow commands, a text report. Quote shows every byte that could end
// a line, move the cursor or start an escape sequence as a visible escape,
// so a quoted string stays on the line it was put on, changes nothing on
// the screen, and cannot begin a workflow command.
package wiretext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote returns s with each character a reader could not see for what it
// is written as an escape, the way Go writes it in a string literal: \n,
// \r, \t, \x1b and the other C0 controls and DEL as \xNN, C1 controls and
// other invisible characters (format characters such as the bidirectional
// overrides, separators other than the space) as \uNNNN, a byte that is
// not UTF-8 as \xNN, and the backslash itself as \\, so an escape in the
// output always stands for one in the input. Printable characters,
// non-ASCII letters among them, are kept. When s would begin a line with
// "::" (after white space, as the runner reads a command), its first colon
// is written \x3a.
func Quote(s string) string { return escape(s, true) }

// Visible is Quote for text mcpverdict composed around values from the
// wire (a finding's message, a note, a line of a log): the same escapes,
// but the backslash and the tab are left alone, so values already quoted
// inside the text read as they were written.
func Visible(s string) string { return escape(s, false) }

func escape(s string, quote bool) string {
	if plain(s, quote) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	rest := s
	// A tab Quote escapes is no longer white space the runner skips.
	space := " \t"
	if quote {
		space = " "
	}
	if t := strings.TrimLeft(s, space); strings.HasPrefix(t, "::") {
		b.WriteString(s[:len(s)-len(t)])
		b.WriteString(`\x3a`)
		rest = t[1:]
	}
	for i := 0; i < len(rest); {
		r, size := utf8.DecodeRuneInString(rest[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeByteEscape(&b, rest[i])
		case r == '\\' && quote:
			b.WriteString(`\\`)
		case r == '\t' && !quote:
			b.WriteByte('\t')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			writeByteEscape(&b, byte(r))
		case r < 0x80 || unicode.IsPrint(r):
			b.WriteString(rest[i : i+size])
		default:
			writeRuneEscape(&b, r)
		}
		i += size
	}
	return b.String()
}

// plain reports whether escape would return s unchanged: printable ASCII
// (a tab too, for Visible; no backslash, for Quote) and no leading "::".
func plain(s string, quote bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\t' && !quote {
			continue
		}
		if c < 0x20 || c >= 0x7f || (c == '\\' && quote) {
			return false
		}
	}
	return !strings.HasPrefix(strings.TrimLeft(s, " \t"), "::")
}

const hex = "0123456789abcdef"

func writeByteEscape(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&0xf])
}

func writeRuneEscape(b *strings.Builder, r rune) {
	digits, prefix := 4, `\u`
	if r > 0xffff {
		digits, prefix = 8, `\U`
	}
	b.WriteString(prefix)
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte(hex[(r>>uint(shift))&0xf])
	}
}
