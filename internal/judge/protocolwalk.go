package judge

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// opaqueMembers hold data the protocol carries but does not define (tool
// arguments, structured content, schemas, error and log data, provider
// metadata): what is inside them is the application's, not MCP's.
var opaqueMembers = map[string]bool{
	"arguments": true, "structuredContent": true, "inputSchema": true, "outputSchema": true,
	"requestedSchema": true, "data": true, "metadata": true, "experimental": true, "_meta": true,
}

// messageBody returns the part of a message rules look into, and its name.
func messageBody(m *Msg) (json.RawMessage, string) {
	if m.Kind == KindResult {
		return m.Result, "result"
	}
	return m.Params, "params"
}

// visitFunc sees one member of an object: its key, its raw value and where
// it sits. It returns whether the walk should go into the value.
type visitFunc func(key []byte, val json.RawMessage, at *walkPath) bool

// walkMembers calls visit for every member of every object in a message's
// params or result, each object's members in key order (the last of a
// repeated key only, as a decoded map holds them), and descends into a
// member's value when visit returns true and the member is protocol data,
// not opaque. A message whose bytes do not hold needle has nothing the
// visitor looks for and is not read at all; one that is not well-formed
// JSON is not walked.
//
// The walk reads the raw text: nothing is decoded, and a path is only
// spelled out when a visitor asks for it.
func walkMembers(m *Msg, needle rareNeedle, visit visitFunc) {
	if mayHold(m, needle) {
		w := walker{visit: visit}
		w.walk(m)
	}
}

// walk is walkMembers with the walker's visitor, for a message already
// known to hold the needle; a walker kept from message to message reuses
// its buffers.
func (w *walker) walk(m *Msg) {
	raw, root := messageBody(m)
	memo := bodyMemo(m)
	text := memo.checked(raw)
	if text.Bytes() == nil {
		return
	}
	w.text = text
	defer func() { w.text = rawjson.Checked{} }() // the next message's walk must not keep these bytes
	w.path.b = append(w.path.b[:0], root...)
	if f := m.fields(memo, raw); f.object {
		// The members of params or result are read once per message for
		// every rule that asks; the walk takes them as they are.
		start := len(w.scratch)
		w.scratch = append(w.scratch, f.members...)
		w.members(start)
		return
	}
	w.value(text)
}

// bodyMemo returns what m reads, on first use, of the text messageBody
// returns: its members, its Checked text, whether it holds _meta.
func bodyMemo(m *Msg) *objectFields {
	if m.Kind == KindResult {
		return &m.result
	}
	return &m.params
}

// mayHold reports whether the bytes of m's params or result hold needle.
// A caller that builds a visitor can ask first: a closure that captures
// variables costs an allocation even when the walk visits nothing.
func mayHold(m *Msg, needle rareNeedle) bool {
	raw, _ := messageBody(m)
	return needle.in(raw)
}

type walker struct {
	visit visitFunc
	// text is the Checked text of the params or result walked, in which
	// every value the walk meets lies.
	text rawjson.Checked
	path walkPath
	// scratch holds the members of the objects being walked, innermost
	// last, so one buffer serves the whole walk.
	scratch []member
}

func (w *walker) value(raw rawjson.Checked) {
	switch rawjson.Kind(raw.Bytes()) {
	case '[':
		w.array(raw)
	case '{':
		w.object(raw)
	}
}

// The walk only starts on Checked text, so its arrays and objects are read
// without checking their grammar again.
func (w *walker) array(raw rawjson.Checked) {
	e := raw.Elements()
	for i := 0; e.Next(); i++ {
		n := w.path.push('[')
		w.path.b = append(strconv.AppendInt(w.path.b, int64(i), 10), ']')
		w.value(e.CheckedValue())
		w.path.pop(n)
	}
}

func (w *walker) object(raw rawjson.Checked) {
	start := len(w.scratch)
	it := raw.Members()
	w.scratch, _ = appendIterated(w.scratch, &it)
	w.members(start)
}

// members walks the members of an object, those scratch holds from start.
func (w *walker) members(start int) {
	members := sortMembers(w.scratch[start:])
	for _, mb := range members {
		n := w.path.push('.')
		w.path.b = append(w.path.b, mb.key...)
		if w.visit(mb.key, mb.value, &w.path) && !opaqueMember(mb.key, mb.value) {
			value, _ := w.text.Within(mb.value) // a member of an object the walk read
			w.value(value)
		}
		w.path.pop(n)
	}
	// A walker kept for the next message must not keep this one's bytes.
	clear(w.scratch[start:])
	w.scratch = w.scratch[:start]
}

func opaqueMember(key []byte, v json.RawMessage) bool {
	if string(key) == "content" {
		return rawjson.Kind(v) == '{' // an elicitation result's content: the user's answers
	}
	return opaqueMembers[string(key)]
}

// walkPath is where a walk stands, as "params.a[0].b"; it is spelled out
// only for a finding.
type walkPath struct{ b []byte }

func (p *walkPath) push(sep byte) int {
	n := len(p.b)
	p.b = append(p.b, sep)
	return n
}

func (p *walkPath) pop(n int) { p.b = p.b[:n] }

// String returns the path; a *walkPath given to a message format is only
// spelled out when the message is.
func (p *walkPath) String() string { return string(p.b) }

// metaObject is one _meta object found in a message: where it sits, and its
// members in key order.
type metaObject struct {
	path    string
	members []member
}

// value returns the member called key, or nil.
func (o metaObject) value(key string) json.RawMessage { return lookup(o.members, key) }

// metaFinder lists the _meta objects of one message at a time. It keeps
// its walker and buffers from message to message, so that a message with
// _meta costs no allocation for the walk itself.
type metaFinder struct {
	walker walker
	found  []metaObject
	// members holds the members of every object found, one after another.
	members []member
	// spelled shares the spelling of paths and keys met again and again.
	spelled spellings
	// rootMeta is the _meta member of the message's params or result, and
	// rootMembers its members, as the message read them for every rule.
	rootMeta    json.RawMessage
	rootMembers metaMembers
}

// objects lists every _meta object in a message's params or result; the
// list is good until release.
func (f *metaFinder) objects(m *Msg) []metaObject {
	if body, _ := messageBody(m); !bodyMemo(m).holdsMeta(body) {
		return nil
	}
	if f.walker.visit == nil {
		f.walker.visit = f.visit // bound once: a method value costs an allocation
	}
	f.rootMeta, f.rootMembers = bodyMeta(m)
	if onlyRootMeta(m, f.rootMeta) {
		// The walk would find the root's _meta and nothing else.
		f.add(rootMetaPath(m), f.rootMeta)
	} else {
		f.walker.walk(m)
	}
	f.rootMeta, f.rootMembers = nil, nil
	return f.found
}

// onlyRootMeta reports whether meta, the _meta object among the members of
// a message's well-formed params or result, is the only member called _meta
// in it. A key is matched as written, so each such member puts the needle
// in the text: the needle once, as meta's own key, and nowhere else, leaves
// no other _meta for a walk to find.
func onlyRootMeta(m *Msg, meta json.RawMessage) bool {
	body, _ := messageBody(m)
	if _, checked := bodyMemo(m).text.Within(body); rawjson.Kind(meta) != '{' || !checked {
		return false
	}
	start := cap(body) - cap(meta) // meta's offset, when it lies in body
	if start < 0 || start+len(meta) > len(body) || !sameBytes(body[start:start+len(meta)], meta) {
		return false
	}
	key := keyBefore(body, start)
	return key >= 0 && !metaMemberName.in(body[:key]) && !metaMemberName.in(body[start+len(meta):])
}

// rootMetaPath is where a walk finds the _meta member of m's params or
// result, spelled once.
func rootMetaPath(m *Msg) string {
	if m.Kind == KindResult {
		return "result._meta"
	}
	return "params._meta"
}

// keyBefore returns where the key `"_meta"` of the value at start begins,
// -1 when the text before the value is not that key and its colon.
func keyBefore(body []byte, start int) int {
	i := len(rawjson.TrimRightSpace(body[:start]))
	if i == 0 || body[i-1] != ':' {
		return -1
	}
	i = len(rawjson.TrimRightSpace(body[:i-1]))
	key := i - len(metaMemberName.text)
	if key < 0 || !bytes.Equal(body[key:i], metaMemberName.text) {
		return -1
	}
	return key
}

// bodyMeta returns the _meta member of a message's params or result, and
// its members.
func bodyMeta(m *Msg) (json.RawMessage, metaMembers) {
	if m.Kind == KindResult {
		return lookup(m.resultFields().members, "_meta"), m.ResultMeta()
	}
	return lookup(m.paramsFields().members, "_meta"), m.ParamsMeta()
}

func (f *metaFinder) visit(key []byte, val json.RawMessage, at *walkPath) bool {
	if string(key) == "_meta" && rawjson.Kind(val) == '{' {
		f.add(f.spelled.of(at.b), val)
	}
	return true
}

// add lists val, a _meta object found at path.
func (f *metaFinder) add(path string, val json.RawMessage) {
	start := len(f.members)
	if sameBytes(val, f.rootMeta) {
		f.members = append(f.members, f.rootMembers...) // read already
	} else {
		f.members = appendMembers(f.members, val)
	}
	members := sortMembers(f.members[start:])
	f.members = f.members[:start+len(members)]
	f.found = append(f.found, metaObject{path: path, members: slices.Clip(members)})
}

// spellings hands out one string per spelling of the _meta paths and keys
// it is asked about: the same few recur in message after message. It
// forgets them all once it holds maxSpellings, so memory stays flat.
type spellings map[string]string

const maxSpellings = 256

func (sp *spellings) of(b []byte) string {
	if s, ok := (*sp)[string(b)]; ok {
		return s
	}
	if *sp == nil || len(*sp) >= maxSpellings {
		*sp = spellings{}
	}
	s := string(b)
	(*sp)[s] = s
	return s
}

// release forgets the objects found, and with them the message's bytes.
func (f *metaFinder) release() {
	clear(f.found)
	clear(f.members)
	f.found, f.members = f.found[:0], f.members[:0]
}

// decodeAny decodes raw into a generic value, numbers as json.Number, for
// the validators that take one.
func decodeAny(raw json.RawMessage) (any, bool) { return rawjson.Decode(raw) }
