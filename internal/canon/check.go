package canon

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// CanonicalEnd checks that a value in canonical form starts at b[i] and
// returns the offset just past it, or -1 when there is none. It is the fast
// path of ledger verification: one pass, no allocation for ordinary input. A
// caller that gets -1 decodes the bytes to say what is wrong.
func CanonicalEnd(b []byte, i int) int {
	return checkValue(b, i, 0)
}

func checkValue(b []byte, i, depth int) int {
	if i >= len(b) || depth > MaxDepth {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return checkString(b, i)
	case c == '{':
		return checkObject(b, i, depth)
	case c == '[':
		return checkArray(b, i, depth)
	case c == '-' || (c >= '0' && c <= '9'):
		return checkNumber(b, i)
	case c == 't':
		return checkLiteral(b, i, "true")
	case c == 'f':
		return checkLiteral(b, i, "false")
	case c == 'n':
		return checkLiteral(b, i, "null")
	}
	return -1
}

func checkLiteral(b []byte, i int, lit string) int {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return i + len(lit)
	}
	return -1
}

func checkArray(b []byte, i, depth int) int {
	i++
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		if i = checkValue(b, i, depth+1); i < 0 || i >= len(b) {
			return -1
		}
		switch b[i] {
		case ']':
			return i + 1
		case ',':
			i++
		default:
			return -1
		}
	}
}

func checkObject(b []byte, i, depth int) int {
	i++
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	prevStart, prevEnd := -1, -1
	for {
		keyEnd := checkString(b, i)
		if keyEnd < 0 || keyEnd >= len(b) || b[keyEnd] != ':' {
			return -1
		}
		if prevStart >= 0 && !keyAfter(b[prevStart:prevEnd], b[i:keyEnd]) {
			return -1
		}
		prevStart, prevEnd = i, keyEnd
		if i = checkValue(b, keyEnd+1, depth+1); i < 0 || i >= len(b) {
			return -1
		}
		switch b[i] {
		case '}':
			return i + 1
		case ',':
			i++
		default:
			return -1
		}
	}
}

// keyAfter reports whether the quoted key next sorts strictly after prev.
// Escapes change byte order ('"' is 0x22, its escape starts with 0x5c), so
// keys holding one are compared decoded.
func keyAfter(prev, next []byte) bool {
	if bytes.IndexByte(prev, '\\') < 0 && bytes.IndexByte(next, '\\') < 0 {
		return bytes.Compare(prev[1:len(prev)-1], next[1:len(next)-1]) < 0
	}
	p, err1 := strconv.Unquote(string(prev))
	n, err2 := strconv.Unquote(string(next))
	return err1 == nil && err2 == nil && p < n
}

func checkString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	i++
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i + 1
		case c == '\\':
			if i = checkEscape(b, i); i < 0 {
				return -1
			}
		case c < 0x20:
			return -1
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				return -1
			}
			i += n
		}
	}
	return -1
}

// checkEscape accepts only the escapes canonical form writes.
func checkEscape(b []byte, i int) int {
	if i+1 >= len(b) {
		return -1
	}
	switch b[i+1] {
	case '"', '\\', 'n', 'r', 't', 'b', 'f':
		return i + 2
	case 'u':
	default:
		return -1
	}
	if i+6 > len(b) || b[i+2] != '0' || b[i+3] != '0' || (b[i+4] != '0' && b[i+4] != '1') {
		return -1
	}
	lo := b[i+5]
	if !((lo >= '0' && lo <= '9') || (lo >= 'a' && lo <= 'f')) {
		return -1
	}
	switch r, _ := hex4(b, i+2); r {
	case '\b', '\f', '\n', '\r', '\t':
		return -1
	}
	return i + 6
}

func checkNumber(b []byte, i int) int {
	end, ok := rawjson.NumberEnd(b, i)
	if !ok {
		return -1
	}
	lit := b[i:end]
	if !bytes.ContainsAny(lit, ".eE") {
		if string(lit) == "-0" {
			return -1
		}
		return end
	}
	var scratch [40]byte
	canonical, err := appendNumber(scratch[:0], string(lit))
	if err != nil || !bytes.Equal(canonical, lit) {
		return -1
	}
	return end
}
