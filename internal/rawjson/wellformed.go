package rawjson

import "math/bits"

// The functions here read text the caller knows is well-formed JSON (the
// trace reader checked every payload as it read the line): a value is
// skipped by its quotes and brackets alone, without checking its grammar
// again. On well-formed text they find exactly what their checking
// counterparts find; on other text what they return means nothing.

// MembersOfWellFormed is Members for an object known to be well-formed.
func MembersOfWellFormed(obj []byte) Iter {
	it := Members(obj)
	it.wellFormed = true
	return it
}

// ElementsOfWellFormed is Elements for an array known to be well-formed.
func ElementsOfWellFormed(arr []byte) Elems {
	e := Elements(arr)
	e.wellFormed = true
	return e
}

// skipWellFormed returns the end of the well-formed JSON value whose first
// byte is b[i].
func skipWellFormed(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipStringWellFormed(b, i)
	case '{', '[':
		return skipContainerWellFormed(b, i)
	}
	// A number or a literal runs to the first byte that cannot be in one.
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && !isSpace(b[i]) {
		i++
	}
	return i
}

// skipStringWellFormed returns the end of the string that opens at b[i].
// An escape is two bytes as far as quotes go: the four hex digits of \u
// hold none. As skipString, it makes no call, and a string cut short ends
// one past b as if a quote followed it.
func skipStringWellFormed(b []byte, i int) int {
	for i++; ; {
		x := wordOrRest(b, i, ones*'"')
		special := quotesAndBackslashes(x)
		if special == 0 {
			i += 8
			continue
		}
		at := bits.TrailingZeros64(special)
		if i += at / 8; byte(x>>(at&^7)) == '"' {
			return i + 1
		}
		i += 2 // past the escape
	}
}

// skipContainerWellFormed returns the end of the object or array that
// opens at b[i], counting brackets outside strings. Setting bit 5 of a
// byte turns '[' into '{' and ']' into '}' and no other byte into either,
// so that one test finds each kind of bracket.
func skipContainerWellFormed(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		c := b[i]
		if c == '"' {
			i = skipStringWellFormed(b, i)
			continue
		}
		i++
		if c|0x20 == '{' {
			depth++
		} else if c|0x20 == '}' {
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return i
}
