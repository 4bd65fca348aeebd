// Package rawjson reads JSON text without decoding it: where a value ends,
// and the members of an object as raw text. The judge looks at a few members
// of each message, often one level down; finding them by a scan costs a
// fraction of decoding the message into maps or structs, and allocates
// nothing.
//
// What it accepts is exactly JSON (RFC 8259), the grammar encoding/json and
// segmentio/encoding accept: the same text is well-formed for all three.
// Like them it does not insist on valid UTF-8 inside strings.
package rawjson

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Skip returns the length of the JSON value at the start of b, counting the
// whitespace before it, and whether that value is well-formed. Whatever
// follows the value is not looked at.
func Skip(b []byte) (int, bool) { return skipValue(b, 0) }

// MaxDepth is how deeply arrays and objects may nest: encoding/json's limit.
// Deeper text is refused as malformed, since a scan that recursed on it
// without bound could exhaust the stack (a fatal error, not a panic).
const MaxDepth = 10000

// skipValue is Skip for a value nested in depth containers.
func skipValue(b []byte, depth int) (int, bool) { return valueEnd(b, skipSpace(b, 0), depth) }

// valueEnd returns the end of the value whose first byte is b[i], and
// whether it is well-formed. Ends are offsets in b rather
// than in a reslice of it: the scans below pass b and an index down, as
// cheap a call as there is.
func valueEnd(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{':
		if depth >= MaxDepth {
			return i, false
		}
		return skipObject(b, i, depth+1)
	case '[':
		if depth >= MaxDepth {
			return i, false
		}
		return skipArray(b, i, depth+1)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return skipNumber(b, i)
	case 't':
		return skipLiteral(b, i, "true")
	case 'f':
		return skipLiteral(b, i, "false")
	case 'n':
		return skipLiteral(b, i, "null")
	}
	return i, false
}

// Valid reports whether b is exactly one well-formed JSON value, with
// nothing but whitespace around it.
func Valid(b []byte) bool {
	n, ok := Skip(b)
	return ok && skipSpace(b, n) == len(b)
}

// Kind is the first byte of the JSON value in b, past any whitespace: '{',
// '[', '"', 't', 'f', 'n', a digit or '-'; 0 when b holds nothing.
func Kind(b []byte) byte {
	if i := skipSpace(b, 0); i < len(b) {
		return b[i]
	}
	return 0
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipSpaceTo returns where the text from b[i] goes on past whitespace, and
// whether it goes on with c. Compact text, which has no whitespace, costs
// one test of c.
func skipSpaceTo(b []byte, i int, c byte) (int, bool) {
	if i < len(b) && b[i] == c {
		return i, true
	}
	i = skipSpace(b, i)
	return i, i < len(b) && b[i] == c
}

// isSpace tests c > ' ' first: compact JSON has almost no whitespace, and
// every byte that is not whitespace but could start or end a token is
// above the space, so the common case costs one comparison.
func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

func skipLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// skipString returns the end of the string that opens at b[i]. Most of a
// message is short strings, so that the cost of a call counts as much as
// the scan's: it makes no call that the compiler does not inline, which
// spares it a frame, and it reads which special byte it found from the
// word rather than from b.
func skipString(b []byte, i int) (int, bool) {
	for i++; ; {
		x := wordOrRest(b, i, 0) // the zero bytes past the end are control bytes
		special := plainSpecials(x)
		if special == 0 {
			i += 8
			continue
		}
		at := bits.TrailingZeros64(special)
		i += at / 8
		switch byte(x >> (at &^ 7)) {
		case '"':
			return i + 1, true
		case '\\':
			n := escapeLen(b, i)
			if n == 0 {
				return i, false
			}
			i += n
		default:
			return i, false // a control character, or the end of b
		}
	}
}

// wordOrRest is the eight bytes from b[i] as word reads them; past the end
// of b, the bytes of pad fill it up.
func wordOrRest(b []byte, i int, pad uint64) uint64 {
	if i+8 <= len(b) {
		return word(b, i)
	}
	for k := len(b) - 1; k >= i; k-- {
		pad = pad<<8 | uint64(b[k])
	}
	return pad
}

// plainRun returns where the run of plain string bytes from b[i] ends: the
// first quote, backslash or control character, or len(b). Eight bytes are
// tested at a time (the zero-byte tricks of Hacker's Delight): strings are
// most of what a message is, and most of their bytes are plain.
func plainRun(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if special := plainSpecials(word(b, i)); special != 0 {
			return i + bits.TrailingZeros64(special)/8
		}
	}
	for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
		i++
	}
	return i
}

// plainSpecials sets the high bit of the first byte of x that a string
// cannot hold as it is: a quote, a backslash or a byte below 0x20 (and
// maybe of later bytes: only the first counts). Flipping bit 1 turns the
// quote into 0x20 and keeps the control bytes below it, so that one test
// for bytes below 0x21 finds both. Neither flip touches a high bit, so that
// x's own high bits rule out the bytes above 0x7F for both tests at once.
func plainSpecials(x uint64) uint64 {
	quoteOrControl, backslash := x^(ones*0x02), x^(ones*'\\')
	return ((quoteOrControl - ones*0x21) | (backslash - ones)) &^ x & highs
}

// plainASCIIRun is plainRun that also stops at a byte outside ASCII.
func plainASCIIRun(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := word(b, i)
		if special := plainSpecials(x) | x&highs; special != 0 {
			return i + bits.TrailingZeros64(special)/8
		}
	}
	for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 && b[i] < utf8.RuneSelf {
		i++
	}
	return i
}

const ones, highs = 0x0101010101010101, 0x8080808080808080

// word is the eight bytes from b[i], which the caller has tested are there.
// Sliced as b[i:i+8], not b[i:], they let the compiler see from that test
// that the load is in bounds, and drop the checks it would make per word.
func word(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i : i+8]) }

// quotesAndBackslashes sets the high bit of the first byte of x that is a
// quote or a backslash (and maybe of later bytes: only the first counts),
// with the high bits of x ruling out bytes above 0x7F as in plainSpecials.
func quotesAndBackslashes(x uint64) uint64 {
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	return ((quote - ones) | (backslash - ones)) &^ x & highs
}

// escapeLen returns the length of the escape sequence whose backslash is
// b[i]; 0 when there is none. Its tables keep it small enough to inline,
// which keeps skipString free of calls.
func escapeLen(b []byte, i int) int {
	if len(b)-i < 2 {
		return 0
	}
	n := int(escapeLengths[b[i+1]])
	if n == 6 && (len(b)-i < 6 || !hexDigits4(b[i+2:i+6])) {
		return 0
	}
	return n
}

// escapeLengths is the length of the escape sequence a backslash and c
// open: 6 for \u, whose four hex digits are tested apart; 0 for none.
var escapeLengths = [256]uint8{'"': 2, '\\': 2, '/': 2, 'b': 2, 'f': 2, 'n': 2, 'r': 2, 't': 2, 'u': 6}

func hexDigits4(h []byte) bool {
	return len(h) == 4 && isHexDigit[h[0]] && isHexDigit[h[1]] && isHexDigit[h[2]] && isHexDigit[h[3]]
}

var isHexDigit = [256]bool{
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true,
	'A': true, 'B': true, 'C': true, 'D': true, 'E': true, 'F': true,
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipNumber returns the end of the number that starts at b[i]: an optional
// minus, an integer part without leading zeros, then optional fraction and
// exponent.
func skipNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && isDigit(b[i]):
		i = skipDigits(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := skipDigits(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := skipDigits(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func skipDigits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

func skipArray(b []byte, i, depth int) (int, bool) {
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		end, ok := valueEnd(b, i, depth)
		if !ok {
			return end, false
		}
		if i, ok = skipSpaceTo(b, end, ','); ok {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			return i + 1, true
		}
		return i, false
	}
}

func skipObject(b []byte, i, depth int) (int, bool) {
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		end, ok := skipString(b, i)
		if !ok {
			return end, false
		}
		if i, ok = skipSpaceTo(b, end, ':'); !ok {
			return i, false
		}
		if end, ok = valueEnd(b, skipSpace(b, i+1), depth); !ok {
			return end, false
		}
		if i, ok = skipSpaceTo(b, end, ','); ok {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return i + 1, true
		}
		return i, false
	}
}
