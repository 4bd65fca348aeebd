package rawschema

import (
	"bytes"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// stringRules are minLength and maxLength; -1 when absent.
type stringRules struct {
	minLength, maxLength int
	// base64 asserts format "byte" (FormatBase64).
	base64 bool
}

// validString checks the text of a well-formed JSON string, quotes and all.
func (s *Schema) validString(text []byte) bool {
	if s.str == noStringRules && !s.enum.set && !s.constant.set {
		return true // nothing needs the string's value
	}
	value, ok := stringValue(text)
	if !ok {
		return false
	}
	// Lengths count code points of the decoded string, as the validator
	// does; each byte that is not UTF-8 decodes to one U+FFFD.
	n := utf8.RuneCount(value)
	return n >= s.str.minLength && (s.str.maxLength < 0 || n <= s.str.maxLength) &&
		s.enum.admitsString(value) && s.constant.admitsString(value) &&
		(!s.str.base64 || isBase64(value))
}

// isBase64 reports whether s decodes as StdEncoding decodes it: whole
// quanta of the standard alphabet, the last one padded with at most two
// '='. Line breaks, which the decoder skips, are left undecided.
func isBase64(s []byte) bool {
	if len(s)%4 != 0 {
		return false
	}
	pad := 0
	if len(s) > 0 && s[len(s)-1] == '=' {
		pad++
		if s[len(s)-2] == '=' {
			pad++
		}
	}
	for _, c := range s[:len(s)-pad] {
		if !base64Alphabet[c] {
			return false
		}
	}
	return true
}

var base64Alphabet = func() (set [256]bool) {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") {
		set[c] = true
	}
	return set
}()

// stringValue is the value of a JSON string: the text between its quotes
// when that holds no escape and is UTF-8 (no copy), else decoded as
// encoding/json decodes it, which is what the validator is given.
func stringValue(text []byte) ([]byte, bool) {
	inner := text[1 : len(text)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return inner, true
	}
	decoded, ok := rawjson.Unquote(text)
	return []byte(decoded), ok
}
