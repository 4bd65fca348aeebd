package message

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// Member is one member of a JSON object: its key, unescaped, and its value
// as raw JSON text. Both alias the message's bytes, which never change.
type Member struct {
	Key   []byte
	Value json.RawMessage
}

// AppendMembers appends the members of obj, in document order, to dst. A
// text that is not one well-formed object has no members, as decoding it
// into a map would fail.
func AppendMembers(dst []Member, obj []byte) []Member {
	it := rawjson.Members(obj)
	dst, _ = AppendIterated(dst, &it)
	return dst
}

// AppendIterated appends the members it iterates to dst, and tells whether
// they make one well-formed object; when not, it appends none. It takes the
// iterator (a hundred bytes) by reference, so that it is not copied.
func AppendIterated(dst []Member, it *rawjson.Iter) ([]Member, bool) {
	n := len(dst)
	for it.Next() {
		dst = append(dst, Member{Key: it.Key(), Value: it.Value()})
	}
	if !it.Valid() {
		return dst[:n], false
	}
	return dst, true
}

// Lookup returns the value of the member called name, the last one when
// the key repeats (as decoding into a map keeps it), or nil.
func Lookup(members []Member, name string) json.RawMessage {
	for i := len(members) - 1; i >= 0; i-- {
		if string(members[i].Key) == name {
			return members[i].Value
		}
	}
	return nil
}

// SameBytes reports whether a and b are the same slice of the same memory.
func SameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// ObjectFields is a JSON object's top-level members, read on first use.
type ObjectFields struct {
	Members []Member
	// Object is set when the text is one well-formed object.
	Object, Read bool
	// Text is the object's text as the message's parse checked it; the
	// zero Checked for fields of text read from elsewhere.
	Text rawjson.Checked
	// metaText tells whether the text holds the key _meta anywhere: the
	// _meta rule and ParamsMeta or ResultMeta ask of the same message.
	metaText lazyFlag
}

// HoldsMeta reports whether obj, the text f reads, holds the key _meta at
// any depth. Most messages carry none, and a byte search, made once, is
// far cheaper than reading the object to find that out.
func (f *ObjectFields) HoldsMeta(obj json.RawMessage) bool {
	return f.metaText.Get(func() bool { return MetaMemberName.In(obj) })
}

func (f *ObjectFields) Load(obj json.RawMessage) *ObjectFields { return f.loadInto(obj, nil) }

// loadInto is load that reads the members into buf, an empty slice whose
// room the caller lends, when obj is an object; nil has load allocate.
func (f *ObjectFields) loadInto(obj json.RawMessage, buf []Member) *ObjectFields {
	if !f.Read {
		f.Read = true
		if buf == nil && rawjson.Kind(obj) == '{' {
			buf = make([]Member, 0, InlineMembers)
		}
		it := f.Checked(obj).Members()
		f.Members, f.Object = AppendIterated(buf, &it)
	}
	return f
}

// loadNoted is loadInto for an object whose members the trace reader
// noted as it checked them: bounds, rawjson.MemberBounds' offsets.
func (f *ObjectFields) loadNoted(obj json.RawMessage, bounds []uint32, buf []Member) {
	f.Read, f.Object = true, true
	for ; len(bounds) >= 4; bounds = bounds[4:] {
		buf = append(buf, Member{Key: obj[bounds[0]:bounds[1]], Value: obj[bounds[2]:bounds[3]]})
	}
	f.Members = buf
}

// Checked returns raw, the text f reads or a value read out of it, as
// Checked text, as checkedText does. Text that is not JSON gives the zero
// Checked, which holds nothing and reads as nothing.
func (f *ObjectFields) Checked(raw []byte) rawjson.Checked {
	c, _ := f.checkedText(raw)
	return c
}

// checkedText returns raw as Checked text: by where it lies, when that is
// within f's text, which the message's parse checked, else by checking it;
// false when it is not JSON.
func (f *ObjectFields) checkedText(raw []byte) (rawjson.Checked, bool) {
	if c, ok := f.Text.Within(raw); ok {
		return c, true
	}
	return rawjson.Check(raw)
}

func (f *ObjectFields) Get(obj json.RawMessage, name string) json.RawMessage {
	return Lookup(f.Load(obj).Members, name)
}

// InlineMembers is the room for members a message holds in itself: most
// params and results have few members.
const InlineMembers = 4

// ObjectMember returns obj[name] of a JSON object, nil when absent or not
// an object. For a message's own params or result, m.ParamsField and
// m.ResultField answer from members read once.
func ObjectMember(obj json.RawMessage, name string) json.RawMessage {
	return rawjson.Member(obj, name)
}

// SortMembers orders members by key, as iterating a decoded map in key order
// would, and keeps only the last of a repeated key (the one a map keeps).
func SortMembers(ms []Member) []Member {
	slices.SortStableFunc(ms, func(a, b Member) int { return bytes.Compare(a.Key, b.Key) })
	out := ms[:0]
	for i, m := range ms {
		if i+1 < len(ms) && bytes.Equal(ms[i+1].Key, m.Key) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// JSONString decodes raw into a string as Decode would: a JSON string, or
// null, which gives "".
func JSONString(raw json.RawMessage) (string, bool) {
	if s, ok := rawjson.Unquote(raw); ok {
		return s, true
	}
	return "", IsNull(raw)
}

// StringField returns obj[name] when it is a JSON string.
func StringField(obj json.RawMessage, name string) (string, bool) {
	return JSONString(ObjectMember(obj, name))
}
