package message

import (
	"bytes"
	"unicode/utf8"
)

// NotUnicode finds where a message's text stops being Unicode, which
// UTF-8 encoding needs it to be: a byte that is not UTF-8 (a recorder
// other than capture may write one inside a JSON string), or a \u escape
// of a surrogate that is not half of a pair. It returns the offset and
// what is there, or -1. The judge reads either as U+FFFD, so a finding
// says so.
func NotUnicode(b []byte) (int, string) {
	if !utf8.Valid(b) {
		for i := 0; i < len(b); {
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return i, "a byte that is not UTF-8"
			}
			i += size
		}
	}
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 || i+j+1 >= len(b) {
			return -1, ""
		}
		i += j
		if b[i+1] != 'u' {
			i += 2 // \" \\ \n and the like
			continue
		}
		r, ok := hex4(b, i+2)
		switch {
		case !ok || r < 0xd800 || r > 0xdfff:
		case r <= 0xdbff && i+11 < len(b) && b[i+6] == '\\' && b[i+7] == 'u':
			if low, ok := hex4(b, i+8); ok && low >= 0xdc00 && low <= 0xdfff {
				i += 12
				continue
			}
			return i, "a lone surrogate escape"
		default:
			return i, "a lone surrogate escape"
		}
		i += 6
	}
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}
