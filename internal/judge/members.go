package judge

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// member is one member of a JSON object: its key, unescaped, and its value
// as raw JSON text. Both alias the message's bytes, which never change.
type member struct {
	key   []byte
	value json.RawMessage
}

// appendMembers appends the members of obj, in document order, to dst. A
// text that is not one well-formed object has no members, as decoding it
// into a map would fail.
func appendMembers(dst []member, obj []byte) []member {
	it := rawjson.Members(obj)
	dst, _ = appendIterated(dst, &it)
	return dst
}

// appendIterated appends the members it iterates to dst, and tells whether
// they make one well-formed object; when not, it appends none. It takes the
// iterator (a hundred bytes) by reference, so that it is not copied.
func appendIterated(dst []member, it *rawjson.Iter) ([]member, bool) {
	n := len(dst)
	for it.Next() {
		dst = append(dst, member{key: it.Key(), value: it.Value()})
	}
	if !it.Valid() {
		return dst[:n], false
	}
	return dst, true
}

// lookup returns the value of the member called name, the last one when
// the key repeats (as decoding into a map keeps it), or nil.
func lookup(members []member, name string) json.RawMessage {
	for i := len(members) - 1; i >= 0; i-- {
		if string(members[i].key) == name {
			return members[i].value
		}
	}
	return nil
}

// sameBytes reports whether a and b are the same slice of the same memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// objectFields is a JSON object's top-level members, read on first use.
type objectFields struct {
	members []member
	// object is set when the text is one well-formed object.
	object, read bool
	// text is the object's text as the message's parse checked it; the
	// zero Checked for fields of text read from elsewhere.
	text rawjson.Checked
	// metaText tells whether the text holds the key _meta anywhere: the
	// _meta rule and ParamsMeta or ResultMeta ask of the same message.
	metaText lazyFlag
}

// holdsMeta reports whether obj, the text f reads, holds the key _meta at
// any depth. Most messages carry none, and a byte search, made once, is
// far cheaper than reading the object to find that out.
func (f *objectFields) holdsMeta(obj json.RawMessage) bool {
	return f.metaText.get(func() bool { return metaMemberName.in(obj) })
}

func (f *objectFields) load(obj json.RawMessage) *objectFields { return f.loadInto(obj, nil) }

// loadInto is load that reads the members into buf, an empty slice whose
// room the caller lends, when obj is an object; nil has load allocate.
func (f *objectFields) loadInto(obj json.RawMessage, buf []member) *objectFields {
	if !f.read {
		f.read = true
		if buf == nil && rawjson.Kind(obj) == '{' {
			buf = make([]member, 0, inlineMembers)
		}
		it := f.checked(obj).Members()
		f.members, f.object = appendIterated(buf, &it)
	}
	return f
}

// loadNoted is loadInto for an object whose members the trace reader
// noted as it checked them: bounds, rawjson.MemberBounds' offsets.
func (f *objectFields) loadNoted(obj json.RawMessage, bounds []uint32, buf []member) {
	f.read, f.object = true, true
	for ; len(bounds) >= 4; bounds = bounds[4:] {
		buf = append(buf, member{key: obj[bounds[0]:bounds[1]], value: obj[bounds[2]:bounds[3]]})
	}
	f.members = buf
}

// checked returns raw, the text f reads or a value read out of it, as
// Checked text, as checkedText does. Text that is not JSON gives the zero
// Checked, which holds nothing and reads as nothing.
func (f *objectFields) checked(raw []byte) rawjson.Checked {
	c, _ := f.checkedText(raw)
	return c
}

// checkedText returns raw as Checked text: by where it lies, when that is
// within f's text, which the message's parse checked, else by checking it;
// false when it is not JSON.
func (f *objectFields) checkedText(raw []byte) (rawjson.Checked, bool) {
	if c, ok := f.text.Within(raw); ok {
		return c, true
	}
	return rawjson.Check(raw)
}

func (f *objectFields) get(obj json.RawMessage, name string) json.RawMessage {
	return lookup(f.load(obj).members, name)
}

// inlineMembers is the room for members a message holds in itself: most
// params and results have few members.
const inlineMembers = 4

// objectMember returns obj[name] of a JSON object, nil when absent or not
// an object. For a message's own params or result, m.ParamsField and
// m.ResultField answer from members read once.
func objectMember(obj json.RawMessage, name string) json.RawMessage {
	return rawjson.Member(obj, name)
}

// sortMembers orders members by key, as iterating a decoded map in key order
// would, and keeps only the last of a repeated key (the one a map keeps).
func sortMembers(ms []member) []member {
	slices.SortStableFunc(ms, func(a, b member) int { return bytes.Compare(a.key, b.key) })
	out := ms[:0]
	for i, m := range ms {
		if i+1 < len(ms) && bytes.Equal(ms[i+1].key, m.key) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// jsonString decodes raw into a string as Decode would: a JSON string, or
// null, which gives "".
func jsonString(raw json.RawMessage) (string, bool) {
	if s, ok := rawjson.Unquote(raw); ok {
		return s, true
	}
	return "", isNull(raw)
}

// stringField returns obj[name] when it is a JSON string.
func stringField(obj json.RawMessage, name string) (string, bool) {
	return jsonString(objectMember(obj, name))
}
