package engine

import (
	"fmt"
	"regexp"
	"strings"
)

// uriScheme is RFC 3986's scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
var uriScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// URIProblem says how s falls short of an RFC 3986 URI, or "" when it is
// one: a scheme, a colon, and only unreserved, reserved and percent-encoded
// characters after it. It checks the characters, not every production of
// the grammar, so that a finding is always a plain violation. Non-ASCII
// characters pass: the specification expects resource URIs to carry them
// (the Streamable HTTP transport encodes such an Mcp-Name), as RFC 3987
// IRIs do.
func URIProblem(s string) string {
	if s == "" {
		return "it is empty"
	}
	if !uriScheme.MatchString(s) {
		return "it has no scheme"
	}
	fragments := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return fmt.Sprintf("%q at offset %d is not followed by two hex digits", c, i)
			}
		case c == '#':
			if fragments++; fragments > 1 {
				return "it has a second \"#\""
			}
		case c >= 0x80:
		case !isURIChar(c):
			return fmt.Sprintf("it contains %q, which RFC 3986 allows only percent-encoded", rune(c))
		}
	}
	return ""
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// isURIChar reports whether c is unreserved or reserved in RFC 3986.
func isURIChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0
}

// TemplatePattern turns an RFC 6570 URI template into a pattern that every
// URI it can expand to matches: literal text kept, each expression free.
// It over-matches on purpose: a URI it matches may exist.
func TemplatePattern(tmpl string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for tmpl != "" {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			b.WriteString(regexp.QuoteMeta(tmpl))
			break
		}
		b.WriteString(regexp.QuoteMeta(tmpl[:open]))
		b.WriteString(".*")
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			break
		}
		tmpl = tmpl[open+end+1:]
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
