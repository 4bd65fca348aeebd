package message

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// The rules that read tool results, resource contents and content blocks
// once decoded them into structs; reflection and a pointer per optional
// string made that much of what judging those messages cost. The readers
// here take the same members from the raw text and set them as that
// decoding (Decode: segmentio/encoding with json.ZeroCopy) sets struct
// fields: members in document order, the last of a repeated key winning,
// null leaving a string or bool as it was, and any member of the wrong type
// failing the whole decode. Where only the decoder can tell what it would
// do, a reader says so and its caller decodes as before.

// ReadOutcome is how reading an object's members as Decode would went.
type ReadOutcome uint8

const (
	// readDecoded: Decode would succeed and set what the reader set.
	ReadDecoded ReadOutcome = iota
	// readRefused: Decode would fail.
	readRefused
	// readUnsure: a key Decode may match to a field by folding its case;
	// only Decode can say what it makes of the text.
	ReadUnsure
)

// memberSetter sets the field at index field (of the names given to
// readObject) from a member's raw value, as decoding would.
type memberSetter func(field int, value []byte) ReadOutcome

// readObject hands each member of obj whose key names one of fields to set,
// in document order. Like decoding into a struct, null is an object with no
// members and anything else but an object is refused; the zero Checked,
// which text that is not JSON gives, is refused too.
func readObject(obj rawjson.Checked, fields []string, set memberSetter) ReadOutcome {
	if out, ok := opens(obj.Bytes(), '{'); !ok {
		return out
	}
	it := obj.Members()
	return readMembers(&it, fields, set)
}

// readMembers is readObject's reading of the members it iterates.
func readMembers(it *rawjson.Iter, fields []string, set memberSetter) ReadOutcome {
	for it.Next() {
		if out := readMember(it.Key(), it.Value(), fields, set); out != ReadDecoded {
			return out
		}
	}
	return ended(it.Valid())
}

// readMember hands one member to set when its key names one of fields.
func readMember(key, value []byte, fields []string, set memberSetter) ReadOutcome {
	field, sure := MemberField(key, fields)
	switch {
	case !sure:
		return ReadUnsure
	case field < 0:
		return ReadDecoded
	}
	return set(field, value)
}

// ReadFields is readObject over f, the members of obj a message read once
// for every rule that asks: a well-formed object's members, already in
// hand, are not read again. Anything else is read as readObject reads it.
func ReadFields(f *ObjectFields, obj []byte, fields []string, set memberSetter) ReadOutcome {
	if !f.Read || !f.Object {
		text, ok := f.checkedText(obj)
		if !ok {
			return notJSON(obj, '{')
		}
		return readObject(text, fields, set)
	}
	for _, mb := range f.Members {
		if out := readMember(mb.Key, mb.Value, fields, set); out != ReadDecoded {
			return out
		}
	}
	return ReadDecoded
}

// ended is the outcome of a read that went through every member or
// element. Text that turned out not well-formed is left to the decoder,
// though the message's grammar was checked before any rule reads it.
func ended(valid bool) ReadOutcome {
	if !valid {
		return ReadUnsure
	}
	return ReadDecoded
}

// MemberField returns the index of the field key names exactly, -1 for
// none. sure is false when key is not one of fields but the decoder's case
// folding might take it for one: it tries that for any key it does not
// find as written, and folds non-ASCII letters in ways not worth mirroring.
func MemberField(key []byte, fields []string) (field int, sure bool) {
	for i, f := range fields {
		if string(key) == f {
			return i, true
		}
	}
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return -1, false
		}
	}
	for _, f := range fields {
		// The fields, spec member names, are ASCII too: an ASCII key folds
		// onto one only byte for byte, so only one of its length.
		if len(key) == len(f) && strings.EqualFold(string(key), f) {
			return -1, false
		}
	}
	return -1, true
}

// ReadObjects reads arr as decoding it into a slice of structs does: begin
// starts each element, whose members go to set as readObject hands them
// (an element is read as readObject reads it alone). An object element is
// read by the iteration over its members alone, which ends where the
// element ends: no scan finds that end first.
func ReadObjects(arr rawjson.Checked, fields []string, begin func(), set memberSetter) ReadOutcome {
	if out, ok := opens(arr.Bytes(), '['); !ok {
		return out
	}
	e := arr.Elements()
	for {
		switch e.NextKind() {
		case 0:
			return ended(e.Valid())
		case '{':
			begin()
			inner := e.ValueMembers()
			if out := readMembers(&inner, fields, set); out != ReadDecoded {
				return out
			}
			e.EndValue(&inner)
		case 'n':
			begin()
			e.ReadValue()
		default:
			begin()
			return readRefused
		}
	}
}

// notJSON is what reading raw, text that is not JSON, into the container
// opener opens gives: what opens says, for text that does not open one;
// else only the decoder can say, what it set before it failed included.
func notJSON(raw []byte, opener byte) ReadOutcome {
	if out, ok := opens(raw, opener); !ok {
		return out
	}
	return ReadUnsure
}

// opens reports whether raw is the container opener opens; when it is
// not, out is what decoding it into one gives: null is an empty one,
// anything else is refused.
func opens(raw []byte, opener byte) (out ReadOutcome, ok bool) {
	switch rawjson.Kind(raw) {
	case opener:
		return ReadDecoded, true
	case 'n':
		return ReadDecoded, false
	}
	return readRefused, false
}

// ReadOrDecode reads raw, whose members f may hold, with read, or decodes
// it into a T as before when read is unsure. Like Decode, it gives what it
// set before any failure.
func ReadOrDecode[T any](f *ObjectFields, raw []byte, read func(*ObjectFields, []byte) (T, ReadOutcome)) (T, bool) {
	v, out := read(f, raw)
	return OrDecoded(raw, v, out)
}

// OrDecoded is v, what a read of raw gave, or, when the read was unsure,
// what decoding raw gives.
func OrDecoded[T any](raw []byte, v T, out ReadOutcome) (T, bool) {
	if out != ReadUnsure {
		return v, out == ReadDecoded
	}
	var decoded T
	ok := Decode(raw, &decoded)
	return decoded, ok
}

// stringMember reads a member's value as decoding into a string does: a
// string, or null (isString false); anything else is refused.
func stringMember(value []byte) (s string, isString bool, out ReadOutcome) {
	switch rawjson.Kind(value) {
	case 'n':
		return "", false, ReadDecoded
	case '"':
		return stringValue(value), true, ReadDecoded
	}
	return "", false, readRefused
}

// SetString sets *dst as decoding into a string field does: null leaves it.
func SetString(dst *string, value []byte) ReadOutcome {
	s, isString, out := stringMember(value)
	if isString {
		*dst = s
	}
	return out
}

// SetBool sets *dst as decoding into a bool field does: null leaves it.
func SetBool(dst *bool, value []byte) ReadOutcome {
	switch rawjson.Kind(value) {
	case 'n':
		return ReadDecoded
	case 't', 'f':
		*dst = rawjson.Kind(value) == 't'
		return ReadDecoded
	}
	return readRefused
}

// OptString is a string member that may be absent: what decoding into a
// *string field tells apart (absent, or null, leaves the pointer nil),
// without allocating the pointer.
type OptString struct {
	Val string
	Set bool
}

// setOptString sets *dst as decoding into a *string field does: null
// unsets it.
func setOptString(dst *OptString, value []byte) ReadOutcome {
	s, isString, out := stringMember(value)
	if out == ReadDecoded {
		*dst = OptString{Val: s, Set: isString}
	}
	return out
}

// Ptr is the string as a *string field held it: nil when unset.
func (o *OptString) Ptr() *string {
	if !o.Set {
		return nil
	}
	return &o.Val
}

var errNotString = errors.New("not a JSON string")

// UnmarshalJSON lets Decode fill an optString as it filled a *string, on
// the paths that still decode a struct holding one.
func (o *OptString) UnmarshalJSON(value []byte) error {
	if setOptString(o, value) != ReadDecoded {
		return errNotString
	}
	return nil
}

// stringValue returns the value of a JSON string as Decode gives it. Text
// without escapes, of valid UTF-8, is its own value, and shares the
// message's bytes as Decode's strings do (a trace never changes a line once
// read). Text whose escapes are all short ones is unescaped here; \u
// escapes and bytes that are not UTF-8 are left to the decoder itself.
func stringValue(raw []byte) string {
	inner := raw[1 : len(raw)-1]
	if !utf8.Valid(inner) {
		return decodedString(raw)
	}
	if bytes.IndexByte(inner, '\\') < 0 {
		return unsafe.String(unsafe.SliceData(inner), len(inner))
	}
	if s, ok := unescapeShort(inner); ok {
		return s
	}
	return decodedString(raw)
}

func decodedString(raw []byte) string {
	var s string
	Decode(raw, &s)
	return s
}

// unescapeShort returns the value of a string's inner text when each of its
// escapes is a backslash and one letter (\" \\ \/ \b \f \n \r \t), which
// every decoder reads alike; false at a \u escape.
func unescapeShort(inner []byte) (string, bool) {
	out := make([]byte, 0, len(inner))
	for {
		i := bytes.IndexByte(inner, '\\')
		if i < 0 {
			out = append(out, inner...)
			return unsafe.String(unsafe.SliceData(out), len(out)), true
		}
		if i+1 >= len(inner) {
			return "", false
		}
		c, ok := shortEscape(inner[i+1])
		if !ok {
			return "", false
		}
		out = append(append(out, inner[:i]...), c)
		inner = inner[i+2:]
	}
}

// shortEscape returns the byte the escape \e stands for.
func shortEscape(e byte) (byte, bool) {
	switch e {
	case '"', '\\', '/':
		return e, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}
