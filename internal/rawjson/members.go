package rawjson

import (
	"encoding/json"
	"unicode/utf8"
	"unsafe"
)

// cursor is what stepping through an object and an array share: where the
// iteration stands, the current value, and how the iteration ended.
type cursor struct {
	b     []byte
	i     int
	value []byte
	// started is set once an entry was read: the closing bracket may
	// follow the opening one, never a comma.
	started  bool
	ok, done bool
	// trusted is set when the text iterated is Checked: values are then
	// skipped by their quotes and brackets.
	trusted bool
	// depth counts the containers around this one's entries, for MaxDepth.
	depth int
	// known is, in a trusted iteration, one value whose end is known: it
	// is not skipped byte by byte.
	known []byte
}

func open(b []byte, opener byte) cursor {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != opener {
		return cursor{done: true}
	}
	return cursor{b: b, i: i + 1, depth: 1}
}

// next returns where the next entry starts; false once the iteration is
// over, an empty container included.
func (c *cursor) next(closer byte) (int, bool) {
	if c.done {
		return 0, false
	}
	i := skipSpace(c.b, c.i)
	if i < len(c.b) && c.b[i] == closer && !c.started {
		return 0, c.finish(i+1, true)
	}
	c.started = true
	return i, true
}

// readValue reads the value at b[i] and the comma or closing bracket after
// it. Both next and NextKey leave i past any whitespace.
func (c *cursor) readValue(i int, closer byte) bool {
	if c.trusted {
		if len(c.known) > 0 && unsafe.SliceData(c.known) == &c.b[i] {
			return c.endValue(i, i+len(c.known), closer)
		}
		return c.endValue(i, skipChecked(c.b, i), closer)
	}
	end, ok := valueEnd(c.b, i, c.depth)
	if !ok {
		return c.finish(end, false)
	}
	return c.endValue(i, end, closer)
}

// endValue takes b[start:end] as the current value and reads the comma or
// closing bracket after it.
func (c *cursor) endValue(start, end int, closer byte) bool {
	c.value = c.b[start:end]
	i, comma := skipSpaceTo(c.b, end, ',')
	if comma {
		c.i = i + 1
		return true
	}
	if i < len(c.b) && c.b[i] == closer {
		c.i, c.done, c.ok = i+1, true, true
		return true
	}
	return c.finish(i, false)
}

// finish ends the iteration at b[i]; it returns false, for Next to return.
func (c *cursor) finish(i int, ok bool) bool {
	c.i, c.done, c.ok, c.value = i, true, ok, nil
	return false
}

// Value is the current entry's value, as raw JSON text.
func (c *cursor) Value() []byte { return c.value }

// CheckedValue is Value as Checked text: an iteration yields no value that
// was not checked, by its own scan or by the check of the Checked text it
// goes through.
func (c *cursor) CheckedValue() Checked { return Checked{c.value} }

// Valid reports, once Next has returned false, whether the object or array
// was well-formed up to its closing bracket.
func (c *cursor) Valid() bool { return c.done && c.ok }

// End is, once the iteration is over, the offset just past the closing
// bracket (or where the flaw was found).
func (c *cursor) End() int { return c.i }

// Iter steps through the members of a JSON object in document order.
//
//	it := rawjson.Members(obj)
//	for it.Next() {
//		use(it.Key(), it.Value())
//	}
//	if !it.Valid() { ... }
type Iter struct {
	cursor
	key     []byte
	escaped bool
}

// Members starts an iteration over the object in obj. When obj is not an
// object, Next returns false at once and Valid reports false.
func Members(obj []byte) Iter { return Iter{cursor: open(obj, '{')} }

// Next moves to the next member; false at the end of the object or at the
// first flaw in it.
func (it *Iter) Next() bool { return it.NextKey() && it.ReadValue() }

// NextKey moves to the next member and reads its key and colon, leaving
// its value to ReadValue, or to ValueMembers and EndValue for a caller
// that wants an object value's members as they are checked; false at the
// end of the object or at the first flaw in it.
func (it *Iter) NextKey() bool {
	// cursor.next and the scan of a plain key are written out here: this
	// runs for every member the judge and the trace reader look at.
	if it.done {
		return false
	}
	b := it.b
	i := skipSpace(b, it.i)
	if i < len(b) && b[i] == '}' && !it.started {
		return it.finish(i+1, true)
	}
	it.started = true
	if i >= len(b) || b[i] != '"' {
		return it.finish(i, false)
	}
	// The common key, no escape and ASCII only, is known plain in one pass.
	end, plain := plainASCIIRun(b, i+1)+1, true
	if end > len(b) || b[end-1] != '"' {
		var ok bool
		if end, plain, ok = it.skipKey(i); !ok {
			return it.finish(end, false)
		}
	}
	it.key, it.escaped = b[i+1:end-1], !plain
	colon, ok := skipSpaceTo(b, end, ':')
	if !ok {
		return it.finish(colon, false)
	}
	it.i = skipSpace(b, colon+1)
	return true
}

// ReadValue reads the value of the member NextKey moved to.
func (it *Iter) ReadValue() bool { return it.readValue(it.i, '}') }

// ValueKind is the first byte of the value of the member NextKey moved to,
// as Kind gives it.
func (it *Iter) ValueKind() byte { return Kind(it.b[it.i:]) }

// ValueMembers starts an iteration over the value of the member NextKey
// moved to, as Members would over an object (trusting its grammar when the
// text iterated is Checked); EndValue then takes what it read as the
// member's value.
func (it *Iter) ValueMembers() Iter { return it.valueMembers() }

// EndValue takes the object inner iterated to its end as the current
// member's value and moves past it; false when inner found a flaw.
func (it *Iter) EndValue(inner *Iter) bool { return it.endMembers(inner, '}') }

// valueMembers starts an iteration over the object that opens at b[i].
func (c *cursor) valueMembers() Iter {
	inner := Members(c.b[c.i:])
	if c.depth >= MaxDepth {
		inner.done = true // as deep as skipValue lets a container be
	}
	inner.depth, inner.trusted = c.depth+1, c.trusted
	return inner
}

// endMembers takes the object inner iterated, from b[i], as the current
// value and reads the comma or closer after it.
func (c *cursor) endMembers(inner *Iter, closer byte) bool {
	if !inner.Valid() {
		return c.finish(c.i+inner.End(), false)
	}
	return c.endValue(c.i, c.i+inner.End(), closer)
}

// skipKey returns the end of the key that opens at b[i], one that is not
// plain ASCII, and whether its text is its value: Key then needs no
// decoding.
func (it *Iter) skipKey(i int) (end int, plain, ok bool) {
	b := it.b
	if it.trusted {
		end, ok = skipCheckedString(b, i), true
	} else if end, ok = skipString(b, i); !ok {
		return end, false, false
	}
	return end, !needsDecoding(b[i+1 : end-1]), true
}

// RawKey is the current member's key as written between its quotes, escape
// sequences and all.
func (it *Iter) RawKey() []byte { return it.key }

// KeyIs reports whether the current member's key, unescaped, is name.
func (it *Iter) KeyIs(name string) bool {
	if !it.escaped {
		return string(it.key) == name
	}
	return unquote(it.key) == name
}

// Key is the current member's key, unescaped. It aliases the object's text
// unless the key holds escape sequences (or bytes that are not UTF-8), which
// only then cost a decode.
func (it *Iter) Key() []byte {
	if !it.escaped {
		return it.key
	}
	return []byte(unquote(it.key))
}

// needsDecoding reports whether a key's text differs from its value: it
// holds an escape sequence, or bytes that are not UTF-8 (which decoding
// replaces with U+FFFD, as encoding/json does).
func needsDecoding(b []byte) bool {
	var high uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := word(b, i)
		if backslash := x ^ (ones * '\\'); (backslash-ones)&^backslash&highs != 0 {
			return true
		}
		high |= x & highs
	}
	for ; i < len(b); i++ {
		if b[i] == '\\' {
			return true
		}
		high |= uint64(b[i]) & 0x80
	}
	return high != 0 && !utf8.Valid(b)
}

// unquote decodes the inside of a well-formed JSON string.
func unquote(inner []byte) string {
	var s string
	quoted := make([]byte, 0, len(inner)+2)
	quoted = append(append(append(quoted, '"'), inner...), '"')
	_ = json.Unmarshal(quoted, &s)
	return s
}

// Elems steps through the elements of a JSON array in order.
type Elems struct{ cursor }

// Elements starts an iteration over the array in arr. When arr is not an
// array, Next returns false at once and Valid reports false.
func Elements(arr []byte) Elems { return Elems{open(arr, '[')} }

// Next moves to the next element; false at the end of the array or at the
// first flaw in it.
func (e *Elems) Next() bool {
	i, ok := e.next(']')
	return ok && e.readValue(i, ']')
}

// NextKind moves to the next element, leaving it to ReadValue, or to
// ValueMembers and EndValue when it is an object, and returns its first
// byte as Kind gives it; 0 at the end of the array or at a flaw in it. An
// object element is then read by the iteration over its members alone,
// which ends where the element ends: no scan finds that end first.
func (e *Elems) NextKind() byte {
	i, ok := e.next(']')
	if !ok {
		return 0
	}
	if i >= len(e.b) {
		e.finish(i, false)
		return 0
	}
	e.i = i
	return e.b[i]
}

// ReadValue reads the element NextKind moved to.
func (e *Elems) ReadValue() bool { return e.readValue(e.i, ']') }

// ValueMembers starts an iteration over the object element NextKind moved
// to, as Iter.ValueMembers does over a member's value.
func (e *Elems) ValueMembers() Iter { return e.valueMembers() }

// EndValue takes the object inner iterated to its end as the current
// element and moves past it; false when inner found a flaw.
func (e *Elems) EndValue(inner *Iter) bool { return e.endMembers(inner, ']') }

// Unquote returns the value of the JSON string in raw; false when raw is not
// one string. Text without escapes or bytes outside printable ASCII is its
// own value; anything else is decoded as encoding/json decodes it.
func Unquote(raw []byte) (string, bool) {
	raw = TrimSpace(raw)
	n := len(raw)
	if n < 2 || raw[0] != '"' || raw[n-1] != '"' {
		return "", false
	}
	if inner := raw[1 : n-1]; plainRun(inner, 0) == len(inner) && ascii(inner) {
		return string(inner), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// TrimSpace drops the JSON whitespace around a value.
func TrimSpace(b []byte) []byte {
	b = b[skipSpace(b, 0):]
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Member returns the value of obj's member called name as raw text (the
// last, when the name repeats, as a decoded map keeps it); nil when there
// is none or obj is not one well-formed object.
func Member(obj []byte, name string) []byte {
	var found []byte
	it := Members(obj)
	for it.Next() {
		if it.KeyIs(name) {
			found = it.Value()
		}
	}
	if !it.Valid() {
		return nil
	}
	return found
}
