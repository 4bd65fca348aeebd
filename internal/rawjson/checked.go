package rawjson

import (
	"math/bits"
	"unsafe"
)

// Checked is text known to be one well-formed JSON value. Its methods
// read it by its quotes and brackets alone, without checking its grammar
// again: on well-formed text they find exactly what the checking scans
// find, and a reader that has already checked the text does not pay for a
// second check. A struct rather than a named []byte, which any []byte
// would convert to unseen: only Check, Scanned, Within and the values an
// iteration yields make one, so that trust shows in the type, not in a
// flag a caller may set wrong.
type Checked struct{ text []byte }

// Check returns b as Checked when it is exactly one well-formed JSON
// value, with nothing but whitespace around it (as Valid reports).
func Check(b []byte) (Checked, bool) {
	if !Valid(b) {
		return Checked{}, false
	}
	return Checked{b}, true
}

// Scanned takes b as Checked on the word of a caller that has just scanned
// it with this package's checking scans, which found it well-formed (the
// trace reader as it reads a payload, and the compaction of a body, which
// checks it as it copies it): checking it again would double what reading
// it costs. Any other caller uses Check.
func Scanned(b []byte) Checked { return Checked{b} }

// Bytes is the text; nil for the zero Checked, which holds none.
func (c Checked) Bytes() []byte { return c.text }

// TrimSpace drops the whitespace around c's value, which leaves it
// well-formed.
func (c Checked) TrimSpace() Checked { return Checked{TrimSpace(c.text)} }

// Members starts an iteration over the members of the object c, as Members
// would, that skips each value by its quotes and brackets.
func (c Checked) Members() Iter {
	it := Members(c.text)
	it.trusted = true
	return it
}

// MembersKnowing is Members, for a caller that holds one member's value
// as Checked text within c (as the judge holds params and result): that
// value is taken whole, its end not searched for.
func (c Checked) MembersKnowing(value Checked) Iter {
	it := c.Members()
	if _, ok := c.Within(value.text); ok {
		it.known = value.text
	}
	return it
}

// Elements starts an iteration over the elements of the array c, as
// Elements would, that skips each value by its quotes and brackets.
func (c Checked) Elements() Elems {
	e := Elements(c.text)
	e.trusted = true
	return e
}

// Within returns sub as Checked when it lies within c's text: the caller
// holds sub as a whole value read out of c (a member's value, an element,
// or a raw value a decoder left in place), which c's check vouches for.
// False when sub lies elsewhere, and the caller checks it itself.
//
// Where sub lies is told by its address, not by its capacity: a value cut
// with a capacity of its own (as the trace reader's note of JSON-RPC
// members cuts them) lies within c all the same.
func (c Checked) Within(sub []byte) (Checked, bool) {
	if len(sub) == 0 || len(sub) > len(c.text) {
		return Checked{}, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(c.text)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(sub)))
	if at < base || at-base > uintptr(len(c.text)-len(sub)) {
		return Checked{}, false
	}
	return Checked{sub}, true
}

// skipChecked returns the end of the well-formed JSON value whose first
// byte is b[i].
func skipChecked(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipCheckedString(b, i)
	case '{', '[':
		return skipCheckedContainer(b, i)
	}
	// A number or a literal runs to the first byte that cannot be in one.
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && !isSpace(b[i]) {
		i++
	}
	return i
}

// skipCheckedString returns the end of the string that opens at b[i].
// An escape is two bytes as far as quotes go: the four hex digits of \u
// hold none. As skipString, it makes no call, and a string cut short ends
// one past b as if a quote followed it.
func skipCheckedString(b []byte, i int) int {
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

// skipCheckedContainer returns the end of the object or array that
// opens at b[i], counting brackets outside strings. Setting bit 5 of a
// byte turns '[' into '{' and ']' into '}' and no other byte into either,
// so that one test finds each kind of bracket.
func skipCheckedContainer(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		c := b[i]
		if c == '"' {
			i = skipCheckedString(b, i)
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

// Member is Member on checked text: the value of the last member called
// name, the zero Checked when there is none or c is no object.
func (c Checked) Member(name string) Checked {
	var found Checked
	it := c.Members()
	for it.Next() {
		if it.KeyIs(name) {
			found = it.CheckedValue()
		}
	}
	return found
}
