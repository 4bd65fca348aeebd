package schemas

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// opaqueMembers hold data the protocol carries but does not define (tool
// arguments, structured content, schemas, error and log data, provider
// metadata): what is inside them is the application's, not MCP's.
var opaqueMembers = map[string]bool{
	"arguments": true, "structuredContent": true, "inputSchema": true, "outputSchema": true,
	"requestedSchema": true, "data": true, "metadata": true, "experimental": true, "_meta": true,
}

// MessageBody returns the part of a message rules look into, and its name.
func MessageBody(m *message.Msg) (json.RawMessage, string) {
	if m.Kind == message.KindResult {
		return m.Result, "result"
	}
	return m.Params, "params"
}

// visitFunc sees one member of an object: its key, its raw value and where
// it sits. It returns whether the walk should go into the value.
type visitFunc func(key []byte, val json.RawMessage, at *WalkPath) bool

// WalkMembers calls visit for every member of every object in a message's
// params or result, each object's members in key order (the last of a
// repeated key only, as a decoded map holds them), and descends into a
// member's value when visit returns true and the member is protocol data,
// not opaque. A message whose bytes do not hold needle has nothing the
// visitor looks for and is not read at all; one that is not well-formed
// JSON is not walked.
//
// The walk reads the raw text: nothing is decoded, and a path is only
// spelled out when a visitor asks for it.
func WalkMembers(m *message.Msg, needle message.RareNeedle, visit visitFunc) {
	if MayHold(m, needle) {
		w := walker{visit: visit}
		w.walk(m)
	}
}

// walk is walkMembers with the walker's visitor, for a message already
// known to hold the needle; a walker kept from message to message reuses
// its buffers.
func (w *walker) walk(m *message.Msg) {
	raw, root := MessageBody(m)
	memo := bodyMemo(m)
	text := memo.Checked(raw)
	if text.Bytes() == nil {
		return
	}
	w.text = text
	defer func() { w.text = rawjson.Checked{} }() // the next message's walk must not keep these bytes
	w.path.b = append(w.path.b[:0], root...)
	if f := m.Fields(memo, raw); f.Object {
		// The members of params or result are read once per message for
		// every rule that asks; the walk takes them as they are.
		start := len(w.scratch)
		w.scratch = append(w.scratch, f.Members...)
		w.members(start)
		return
	}
	w.Value(text)
}

// bodyMemo returns what m reads, on first use, of the text messageBody
// returns: its members, its Checked text, whether it holds _meta.
func bodyMemo(m *message.Msg) *message.ObjectFields {
	if m.Kind == message.KindResult {
		return &m.ResultMembers
	}
	return &m.ParamsMembers
}

// MayHold reports whether the bytes of m's params or result hold needle.
// A caller that builds a visitor can ask first: a closure that captures
// variables costs an allocation even when the walk visits nothing.
func MayHold(m *message.Msg, needle message.RareNeedle) bool {
	raw, _ := MessageBody(m)
	return needle.In(raw)
}

type walker struct {
	visit visitFunc
	// text is the Checked text of the params or result walked, in which
	// every value the walk meets lies.
	text rawjson.Checked
	path WalkPath
	// scratch holds the members of the objects being walked, innermost
	// last, so one buffer serves the whole walk.
	scratch []message.Member
}

func (w *walker) Value(raw rawjson.Checked) {
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
		w.Value(e.CheckedValue())
		w.path.pop(n)
	}
}

func (w *walker) object(raw rawjson.Checked) {
	start := len(w.scratch)
	it := raw.Members()
	w.scratch, _ = message.AppendIterated(w.scratch, &it)
	w.members(start)
}

// members walks the members of an object, those scratch holds from start.
func (w *walker) members(start int) {
	members := message.SortMembers(w.scratch[start:])
	for _, mb := range members {
		n := w.path.push('.')
		w.path.b = append(w.path.b, mb.Key...)
		if w.visit(mb.Key, mb.Value, &w.path) && !opaqueMember(mb.Key, mb.Value) {
			value, _ := w.text.Within(mb.Value) // a member of an object the walk read
			w.Value(value)
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

// WalkPath is where a walk stands, as "params.a[0].b"; it is spelled out
// only for a finding.
type WalkPath struct{ b []byte }

func (p *WalkPath) push(sep byte) int {
	n := len(p.b)
	p.b = append(p.b, sep)
	return n
}

func (p *WalkPath) pop(n int) { p.b = p.b[:n] }

// String returns the path; a *walkPath given to a message format is only
// spelled out when the message is.
func (p *WalkPath) String() string { return string(p.b) }

// MetaObject is one _meta object found in a message: where it sits, and its
// members in key order.
type MetaObject struct {
	Path    string
	Members []message.Member
}

// Value returns the member called key, or nil.
func (o MetaObject) Value(key string) json.RawMessage { return message.Lookup(o.Members, key) }

// MetaFinder lists the _meta objects of one message at a time. It keeps
// its walker and buffers from message to message, so that a message with
// _meta costs no allocation for the walk itself.
type MetaFinder struct {
	walker walker
	found  []MetaObject
	// members holds the members of every object found, one after another.
	members []message.Member
	// Spelled shares the spelling of paths and keys met again and again.
	Spelled spellings
	// rootMeta is the _meta member of the message's params or result, and
	// rootMembers its members, as the message read them for every rule.
	rootMeta    json.RawMessage
	rootMembers message.MetaMembers
}

// Objects lists every _meta object in a message's params or result; the
// list is good until release.
func (f *MetaFinder) Objects(m *message.Msg) []MetaObject {
	if body, _ := MessageBody(m); !bodyMemo(m).HoldsMeta(body) {
		return nil
	}
	if f.walker.visit == nil {
		f.walker.visit = f.visit // bound once: a method value costs an allocation
	}
	f.rootMeta, f.rootMembers = bodyMeta(m)
	if onlyRootMeta(m, f.rootMeta) {
		// The walk would find the root's _meta and nothing else.
		f.Add(rootMetaPath(m), f.rootMeta)
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
func onlyRootMeta(m *message.Msg, meta json.RawMessage) bool {
	body, _ := MessageBody(m)
	if _, checked := bodyMemo(m).Text.Within(body); rawjson.Kind(meta) != '{' || !checked {
		return false
	}
	start := cap(body) - cap(meta) // meta's offset, when it lies in body
	if start < 0 || start+len(meta) > len(body) || !message.SameBytes(body[start:start+len(meta)], meta) {
		return false
	}
	key := keyBefore(body, start)
	return key >= 0 && !message.MetaMemberName.In(body[:key]) && !message.MetaMemberName.In(body[start+len(meta):])
}

// rootMetaPath is where a walk finds the _meta member of m's params or
// result, spelled once.
func rootMetaPath(m *message.Msg) string {
	if m.Kind == message.KindResult {
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
	key := i - len(message.MetaMemberName.Text)
	if key < 0 || !bytes.Equal(body[key:i], message.MetaMemberName.Text) {
		return -1
	}
	return key
}

// bodyMeta returns the _meta member of a message's params or result, and
// its members.
func bodyMeta(m *message.Msg) (json.RawMessage, message.MetaMembers) {
	if m.Kind == message.KindResult {
		return message.Lookup(m.ResultFields().Members, "_meta"), m.ResultMeta()
	}
	return message.Lookup(m.ParamsFields().Members, "_meta"), m.ParamsMeta()
}

func (f *MetaFinder) visit(key []byte, val json.RawMessage, at *WalkPath) bool {
	if string(key) == "_meta" && rawjson.Kind(val) == '{' {
		f.Add(f.Spelled.Of(at.b), val)
	}
	return true
}

// Add lists val, a _meta object found at path.
func (f *MetaFinder) Add(path string, val json.RawMessage) {
	start := len(f.members)
	if message.SameBytes(val, f.rootMeta) {
		f.members = append(f.members, f.rootMembers...) // read already
	} else {
		f.members = message.AppendMembers(f.members, val)
	}
	members := message.SortMembers(f.members[start:])
	f.members = f.members[:start+len(members)]
	f.found = append(f.found, MetaObject{Path: path, Members: slices.Clip(members)})
}

// spellings hands out one string per spelling of the _meta paths and keys
// it is asked about: the same few recur in message after message. It
// forgets them all once it holds maxSpellings, so memory stays flat.
type spellings map[string]string

const maxSpellings = 256

func (sp *spellings) Of(b []byte) string {
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

// Release forgets the objects found, and with them the message's bytes.
func (f *MetaFinder) Release() {
	clear(f.found)
	clear(f.members)
	f.found, f.members = f.found[:0], f.members[:0]
}

// DecodeAny decodes raw into a generic value, numbers as json.Number, for
// the validators that take one.
func DecodeAny(raw json.RawMessage) (any, bool) { return rawjson.Decode(raw) }
