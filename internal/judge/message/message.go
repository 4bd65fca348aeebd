package message

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"

	"github.com/segmentio/encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/jsonrpc"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// MsgKind classifies a JSON-RPC message by shape.
type MsgKind int

// The shapes a message can take. KindInvalid covers anything that is not one of
// the others (not JSON, not an object, both result and error, ...).
const (
	KindInvalid MsgKind = iota
	KindRequest
	KindNotification
	KindResult
	KindError
)

func (k MsgKind) String() string {
	return [...]string{"invalid message", "request", "notification", "result", "error response"}[k]
}

// RPCError is the error member of an error response.
type RPCError struct {
	Code    json.RawMessage `json:"code"`
	Message *string         `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// IntCode returns the error code when it is a JSON integer.
func (e *RPCError) IntCode() (int64, bool) {
	if e == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(string(e.Code), 10, 64)
	return n, err == nil
}

// Msg is one JSON-RPC message of a trace, parsed once and shared by every rule.
type Msg struct {
	Event *trace.Event
	// From is the party that sent the message.
	From spec.Party
	Kind MsgKind
	// InBatch is set for an element of a JSON-RPC batch.
	InBatch bool

	// JSONRPC is the "jsonrpc" member; HasJSONRPC tells absent from "".
	JSONRPC    string
	HasJSONRPC bool
	// ID is the raw "id" member (nil when absent, "null" when null); IDKey
	// is a canonical form for matching requests to responses.
	ID     json.RawMessage
	IDKey  string
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *RPCError
	// MethodNum is Method's number among wireMethods, 0 when it is none
	// of them (or was not read from the wire).
	MethodNum uint8

	// Problem says why a message is KindInvalid.
	Problem string
	// Body is the message's own JSON text (one element, for a batch);
	// text is the same as Checked text, the zero Checked when it is not
	// JSON.
	Body []byte
	Text rawjson.Checked
	// HTTPErrorBody marks bytes that are not JSON on an HTTP error response
	// (a 404 for an ended session, a proxy's 502): the HTTP layer answered,
	// not the MCP server, so neither JSON-RPC nor the wire schema judges
	// them; the transport clauses judge the status.
	HTTPErrorBody bool

	// Request is, for a response, the request it answers (nil when none is
	// known); Answered is set when that request already had a response.
	Request  *Request
	Answered bool

	msgMemo
}

// msgMemo is what rules read of a message on first use. Its slices may
// point into the Msg's own storage, so a copy of a Msg must not share it.
type msgMemo struct {
	// The members of params and result, and of their _meta: many rules ask.
	ParamsMembers, ResultMembers         ObjectFields
	ParamsMetaMembers, ResultMetaMembers MetaMembers
	// Inline holds members read from the message, in the order they are
	// read (those of params or result, then of its _meta, often), so that
	// reading them costs no allocation of its own; inlineUsed slots of it
	// are taken. A slot past inlineUsed is written before it is read.
	Inline                         [InlineMembers]Member
	InlineUsed                     int
	ParamsMetaDone, ResultMetaDone bool
	// Substring tests several rules make of the same message.
	InputRequiredHint, RetryHint lazyFlag
	// Content is the result's content blocks, decoded on first use.
	Content DecodedContent
}

// Reset makes m as new for its next message. Clearing the whole Msg,
// most of it pointers, goes through the collector's write barrier for
// every pointer whenever the collector is marking; the rooms the memo
// lends (inline, and the content's) are written before they are read,
// and are left as they are. The content's other fields are cleared, not
// only marked undecoded, so that a reused Msg holds no slice of the last
// event's bytes.
func (m *Msg) Reset() {
	m.Event, m.From, m.Kind, m.InBatch = nil, "", KindInvalid, false
	m.JSONRPC, m.HasJSONRPC, m.ID, m.IDKey, m.Method, m.MethodNum = "", false, nil, "", "", 0
	m.Params, m.Result, m.Error, m.Problem, m.Body, m.Text = nil, nil, nil, "", nil, rawjson.Checked{}
	m.HTTPErrorBody, m.Request, m.Answered = false, nil, false
	m.ParamsMembers, m.ResultMembers = ObjectFields{}, ObjectFields{}
	m.ParamsMetaMembers, m.ResultMetaMembers, m.ParamsMetaDone, m.ResultMetaDone = nil, nil, false, false
	m.InlineUsed = 0
	m.InputRequiredHint, m.RetryHint = flagUnknown, flagUnknown
	m.Content.Raw, m.Content.Items, m.Content.IsArray, m.Content.Done = nil, nil, false, false
}

// Kept returns a copy of m to keep past m's turn: the Msg that carried a
// message is reused for the next one once every rule has seen it. The copy
// reads its params and result afresh, into its own storage, when asked.
// It holds a detached copy of the event, its parts rebased onto that
// copy's payload: a slice of the reader's line block would keep the whole
// block, and the events beside it, alive.
func (m *Msg) Kept() *Msg {
	k := *m
	k.msgMemo = msgMemo{}
	if m.Event != nil {
		k.Event = m.Event.Detached()
		re := func(b []byte) []byte { return trace.Rebased(m.Event, k.Event, b) }
		k.ID, k.Params, k.Result, k.Body = re(m.ID), re(m.Params), re(m.Result), re(m.Body)
		k.Text = rebasedChecked(m.Text, re)
		if m.Error != nil {
			e := *m.Error
			e.Code, e.Data = re(e.Code), re(e.Data)
			k.Error = &e
		}
		k.ParamsMembers.Text, k.ResultMembers.Text = rebasedChecked(m.ParamsMembers.Text, re), rebasedChecked(m.ResultMembers.Text, re)
		return &k
	}
	k.ParamsMembers.Text, k.ResultMembers.Text = m.ParamsMembers.Text, m.ResultMembers.Text
	return &k
}

func rebasedChecked(c rawjson.Checked, re func([]byte) []byte) rawjson.Checked {
	if c.Bytes() == nil {
		return c
	}
	return rawjson.Scanned(re(c.Bytes()))
}

// Request is a request a party sent, kept while it is in flight and handed to
// the response that answers it.
type Request struct {
	From    spec.Party
	IDKey   string
	Method  string
	Params  json.RawMessage
	Seq     int64
	Line    int
	Session string
	// ProgressToken is the canonical form of params._meta.progressToken.
	ProgressToken string
	// Answered is set once a response for it has been seen.
	Answered bool
	// Cancelled is set when the sender cancelled it.
	Cancelled bool

	ParamsMembers ObjectFields
	// MethodNum is the Msg's methodNum.
	MethodNum uint8
	// Order numbers the session's requests as they were sent, which tells
	// apart two sent in one event (the elements of a batch share its seq).
	Order int64
	// ParamsRoom holds params' members when they are few, as a Msg's
	// inline room does.
	ParamsRoom [InlineMembers]Member
	// Earlier is a request still in flight whose id this one reused.
	Earlier *Request
}

// ParamsField returns the member of the request's params called name, as
// Msg.ParamsField does.
func (r *Request) ParamsField(name string) json.RawMessage {
	return r.ParamsMembers.Get(r.Params, name)
}

// ParamsIsObject reports whether params is one well-formed JSON object.
func (m *Msg) ParamsIsObject() bool { return m.ParamsFields().Object }

func (m *Msg) ParamsFields() *ObjectFields { return m.Fields(&m.ParamsMembers, m.Params) }

func (m *Msg) ResultFields() *ObjectFields { return m.Fields(&m.ResultMembers, m.Result) }

// Fields reads f, the members of obj, on first use, into the message's
// inline room when some is still free.
func (m *Msg) Fields(f *ObjectFields, obj json.RawMessage) *ObjectFields {
	if f.Read {
		return f
	}
	if rawjson.Kind(obj) != '{' {
		return f.loadInto(obj, nil)
	}
	room := m.room()
	if bounds, ok := m.noted(obj); ok {
		f.loadNoted(obj, bounds, room)
	} else {
		f.loadInto(obj, room)
	}
	m.claim(room, f.Members)
	f.Members = slices.Clip(f.Members) // the room past them is another's
	return f
}

// noted returns where the trace reader found the members of obj, when obj
// is the event's own params or result and the reader noted them.
func (m *Msg) noted(obj json.RawMessage) ([]uint32, bool) {
	if m.Event == nil {
		return nil, false
	}
	note, ok := m.Event.JSONRPC()
	if !ok {
		return nil, false
	}
	return note.MemberBounds(m.Event.Payload, obj)
}

// room is the free part of inline, as an empty slice to append to; nil
// when none is left.
func (m *Msg) room() []Member {
	if m.InlineUsed == len(m.Inline) {
		return nil
	}
	return m.Inline[m.InlineUsed:m.InlineUsed]
}

// claim takes the slots of room that read, appended to it, filled; read
// that outgrew room lives in an array of its own and takes none.
func (m *Msg) claim(room, read []Member) {
	if room != nil && cap(read) == cap(room) {
		m.InlineUsed += len(read)
	}
}

// ParamsString returns params[name] of the request when it is a JSON string.
func (r *Request) ParamsString(name string) (string, bool) { return JSONString(r.ParamsField(name)) }

// Peer returns the party that must answer a request sent by p.
func Peer(p spec.Party) spec.Party {
	if p == spec.Server {
		return spec.Client
	}
	return spec.Server
}

// ParseMessages appends a message event's JSON-RPC messages to dst (its
// own, reused from event to event): one, or the elements of a batch.
func ParseMessages(dst []*Msg, ev *trace.Event) []*Msg { return ParseMessagesKeyed(dst, ev, nil, nil) }

// ParseMessagesKeyed is parseMessages that takes id keys from ids, and the
// Msgs from store.
func ParseMessagesKeyed(dst []*Msg, ev *trace.Event, ids *IDKeys, store *MsgStore) []*Msg {
	from := spec.Client
	if ev.Direction == trace.ServerToClient {
		from = spec.Server
	}
	if ev.Payload == nil {
		return append(dst, invalidMsg(store.next(), ev, from, "the bytes are not JSON"))
	}
	body := ev.Payload[rawjson.SkipSpace(ev.Payload, 0):]
	if len(body) == 0 {
		body = nil // as bytes.TrimLeft leaves nothing
	}
	text, ok := checkedBody(ev, body)
	switch {
	case len(body) > 0 && body[0] == '[':
		return parseBatch(dst, ev, from, text, ids, store)
	case !ok:
		m := invalidMsg(store.next(), ev, from, "not a JSON object")
		m.Body = body
		return append(dst, m)
	}
	return append(dst, parseOne(store.next(), ev, from, text, ids))
}

// checkedBody returns body, the payload of ev past its leading
// whitespace, as Checked text: as the trace reader or SetBody checked it,
// or checked here for an event made otherwise; false when it is not JSON.
func checkedBody(ev *trace.Event, body []byte) (rawjson.Checked, bool) {
	if payload, ok := ev.CheckedPayload(); ok {
		return payload.Within(body)
	}
	return rawjson.Check(body)
}

// parseBatch appends the elements of a batch, each one message, to dst;
// one invalid message instead when the batch is empty or unreadable.
func parseBatch(dst []*Msg, ev *trace.Event, from spec.Party, body rawjson.Checked, ids *IDKeys, store *MsgStore) []*Msg {
	n := len(dst)
	e := body.Elements()
	for e.Next() {
		m := parseOne(store.next(), ev, from, e.CheckedValue(), ids)
		m.InBatch = true
		dst = append(dst, m)
	}
	if !e.Valid() || len(dst) == n {
		return append(dst[:n], invalidMsg(store.next(), ev, from, "an empty or unreadable batch"))
	}
	return dst
}

func invalidMsg(m *Msg, ev *trace.Event, from spec.Party, problem string) *Msg {
	m.Event, m.From, m.Kind, m.Problem = ev, from, KindInvalid, problem
	return m
}

// wireMsg holds the members of a JSON-RPC message as raw text; a member
// that is absent is nil, one that is null is "null". It is the trace
// reader's record of them, so that taking that record copies nothing.
type wireMsg = jsonrpc.Members

// parseOne reads one JSON-RPC message into m, a Msg as new. Its members are
// found by a scan of the text, not decoded, and each rule reads only the
// members it needs. The text is Checked: neither this scan nor the reading
// of params and result checks its grammar again.
func parseOne(m *Msg, ev *trace.Event, from spec.Party, body rawjson.Checked, ids *IDKeys) *Msg {
	m.Event, m.From, m.Body, m.Text = ev, from, body.Bytes(), body
	var w wireMsg
	if !wireMsgOf(&w, ev, body) {
		m.Problem = "not a JSON object"
		return m
	}
	m.ParamsMembers.Text, _ = body.Within(w.Params)
	m.ResultMembers.Text, _ = body.Within(w.Result)
	if given(w.JSONRPC) {
		m.JSONRPC = wireName(w.JSONRPC)
		m.HasJSONRPC = true
	}
	m.ID, m.Params, m.Result = w.ID, w.Params, w.Result
	m.IDKey = ids.Key(w.ID)
	hasMethod := given(w.Method)
	if hasMethod {
		m.Method, m.MethodNum = wireMethodName(w.Method)
	}
	m.Kind, m.Problem = classify(&w, hasMethod)
	if m.Kind == KindError {
		m.Error = parseRPCError(w.Error)
	}
	return m
}

// wireMsgOf finds the members of a message, into w (a struct of six
// slices, which is filled in place rather than returned and copied): as
// the trace reader recorded them while checking the payload, when body is
// that payload, or by a scan. It reports whether they make a message:
// like decoding into a struct of *string fields, it refuses a text that
// is not an object, and one whose jsonrpc or method is neither a string
// nor null.
func wireMsgOf(w *wireMsg, ev *trace.Event, body rawjson.Checked) bool {
	recorded := false
	if note, ok := ev.JSONRPC(); ok && SameBytes(body.Bytes(), ev.Payload) {
		*w, recorded = note.Members(ev.Payload)
	}
	if !recorded && !w.Scan(body.Members()) {
		return false
	}
	return stringOrNull(w.JSONRPC) && stringOrNull(w.Method)
}

// wireMethods are the method names of every revision. A message naming
// one shares the constant instead of allocating its own copy, and carries
// its number (its index here, from 1), which tells the rules that judge it
// without the name being hashed again.
var wireMethods = []string{"", "completion/complete", "elicitation/create", "initialize", "logging/setLevel",
	"notifications/cancelled", "notifications/elicitation/complete", "notifications/initialized",
	"notifications/message", "notifications/progress", "notifications/prompts/list_changed",
	"notifications/resources/list_changed", "notifications/resources/updated", "notifications/roots/list_changed",
	"notifications/subscriptions/acknowledged", "notifications/tasks/status", "notifications/tools/list_changed",
	"ping", "prompts/get", "prompts/list", "resources/list", "resources/read", "resources/subscribe",
	"resources/templates/list", "resources/unsubscribe", "roots/list", "sampling/createMessage", "server/discover",
	"subscriptions/listen", "tasks/cancel", "tasks/get", "tasks/list", "tasks/result", "tools/call", "tools/list"}

// WireNumbers numbers wireMethods by their quoted text, as a payload
// spells them. A package variable, not filled by an init function, so that
// it is ready for the rules' registration at init.
var WireNumbers = numberWireMethods()

func numberWireMethods() map[string]uint8 {
	if len(wireMethods) > 0x100 {
		panic("judge: too many wire methods to number in a byte")
	}
	out := make(map[string]uint8, len(wireMethods))
	for i, name := range wireMethods[1:] {
		out[`"`+name+`"`] = uint8(i + 1)
	}
	return out
}

// wireName decodes a string member (null gives ""), sharing the constant
// when it is the JSON-RPC version or one of wireMethods.
func wireName(raw json.RawMessage) string {
	if string(raw) == `"2.0"` {
		return "2.0" // every message's jsonrpc: no map lookup
	}
	name, _ := wireMethodName(raw)
	return name
}

// wireMethodName is wireName with the name's number among wireMethods.
func wireMethodName(raw json.RawMessage) (string, uint8) {
	if num, ok := WireNumbers[string(raw)]; ok {
		return wireMethods[num], num
	}
	s, _ := JSONString(raw)
	return s, 0
}

func stringOrNull(raw json.RawMessage) bool {
	k := rawjson.Kind(raw)
	return raw == nil || k == '"' || k == 'n'
}

// given reports whether a member is there and not null. A string, as
// jsonrpc and method nearly always are, is told by its opening quote.
func given(raw json.RawMessage) bool {
	return raw != nil && (len(raw) > 0 && raw[0] == '"' || !IsNull(raw))
}

// IsNull reports whether raw is the JSON literal null, space around it
// aside. Nearly every raw value is bare: one of four bytes, or one that
// begins and ends with printable ASCII, has no space to trim.
func IsNull(raw json.RawMessage) bool {
	if len(raw) == 4 || len(raw) > 0 && bare(raw[0]) && bare(raw[len(raw)-1]) {
		return string(raw) == "null"
	}
	return string(bytes.TrimSpace(raw)) == "null"
}

// bare reports whether c is printable ASCII, which bytes.TrimSpace never
// trims: its spaces are ASCII control characters and the space, and
// multi-byte runes whose bytes are all above 0x7F.
func bare(c byte) bool { return c > ' ' && c < 0x7F }

// parseRPCError reads an error member: nil unless it is an object (or
// null, an error object with nothing in it) whose message is a string.
func parseRPCError(raw json.RawMessage) *RPCError {
	e := &RPCError{}
	if IsNull(raw) {
		return e
	}
	it := rawjson.Members(raw)
	var message json.RawMessage
	for it.Next() {
		switch string(it.Key()) {
		case "code":
			e.Code = it.Value()
		case "message":
			message = it.Value()
		case "data":
			e.Data = it.Value()
		}
	}
	if !it.Valid() || !stringOrNull(message) {
		return nil
	}
	if message != nil && !IsNull(message) {
		text, _ := JSONString(message)
		e.Message = &text
	}
	return e
}

func classify(w *wireMsg, hasMethod bool) (MsgKind, string) {
	hasResult, hasError := w.Result != nil, w.Error != nil
	switch {
	case hasMethod && (hasResult || hasError):
		return KindInvalid, "a message with both a method and a result or error"
	case hasMethod && w.ID == nil:
		return KindNotification, ""
	case hasMethod:
		return KindRequest, ""
	case hasResult && hasError:
		return KindInvalid, "a response with both result and error"
	case hasResult:
		return KindResult, ""
	case hasError:
		return KindError, ""
	case w.ID != nil:
		return KindInvalid, "a response with neither result nor error"
	}
	return KindInvalid, NotJSONRPC
}

// NotJSONRPC is the problem of a JSON value that has none of the members
// of a JSON-RPC message: no method, id, result or error.
const NotJSONRPC = "neither a request, a notification nor a response"

// IDKey gives an id a canonical form: integers by value (1 and 1.0 differ in
// JSON-RPC, so only the literal text counts), strings by their decoded value.
func IDKey(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	if len(raw) > 0 && raw[0] == '"' {
		if s, ok := JSONString(raw); ok {
			return "s:" + s
		}
	}
	return "n:" + string(raw)
}

// ParamsField returns the member of params called name as raw JSON, nil
// when it is absent or params is not an object. The members are read once
// per message, by whichever rule asks first, and shared by all.
func (m *Msg) ParamsField(name string) json.RawMessage { return Lookup(m.ParamsFields().Members, name) }

// ResultField returns the member of result called name, as ParamsField does
// for params.
func (m *Msg) ResultField(name string) json.RawMessage { return Lookup(m.ResultFields().Members, name) }

// ParamsString returns params[name] when it is a JSON string (or null,
// which gives "", as decoding into a string does).
func (m *Msg) ParamsString(name string) (string, bool) { return JSONString(m.ParamsField(name)) }

// ResultString returns result[name] when it is a JSON string.
func (m *Msg) ResultString(name string) (string, bool) { return JSONString(m.ResultField(name)) }

// ResultType returns the result's resultType, "complete" when absent (as the
// 2026-07-28 base protocol reads a result without one).
func (m *Msg) ResultType() string {
	if t, ok := m.ResultString("resultType"); ok {
		return t
	}
	return "complete"
}

// InputRequired reports whether the result is an InputRequiredResult.
func (m *Msg) InputRequired() bool { return m.ResultType() == "input_required" }

// ParamsMeta returns the members of params._meta, nil when there is none.
func (m *Msg) ParamsMeta() MetaMembers {
	if !m.ParamsMetaDone {
		m.ParamsMetaMembers, m.ParamsMetaDone = m.metaOf(m.Params, &m.ParamsMembers), true
	}
	return m.ParamsMetaMembers
}

// ResultMeta returns the members of result._meta, nil when there is none.
func (m *Msg) ResultMeta() MetaMembers {
	if !m.ResultMetaDone {
		m.ResultMetaMembers, m.ResultMetaDone = m.metaOf(m.Result, &m.ResultMembers), true
	}
	return m.ResultMetaMembers
}

var MetaMemberName = NewRareNeedle(`"_meta"`)

// metaOf returns the members of obj._meta, f being what m reads of obj.
func (m *Msg) metaOf(obj json.RawMessage, f *ObjectFields) MetaMembers {
	if !f.HoldsMeta(obj) {
		return nil
	}
	meta := Lookup(m.Fields(f, obj).Members, "_meta")
	if rawjson.Kind(meta) != '{' {
		return nil
	}
	it := f.Checked(meta).Members()
	room := m.room()
	members, _ := AppendIterated(room, &it)
	m.claim(room, members)
	members = slices.Clip(members)
	if len(members) == 0 {
		return nil // as metaMembersOf reads an empty or unreadable _meta
	}
	return members
}

// MetaOf returns the members of obj._meta, nil when there is none.
func MetaOf(obj json.RawMessage) MetaMembers {
	if !MetaMemberName.In(obj) {
		return nil
	}
	return metaMembersOf(ObjectMember(obj, "_meta"))
}

// MetaMembers are the members of a _meta object. Rules look up a key or
// two in it, which a scan of a few members answers without building a map.
type MetaMembers []Member

// metaMembersOf returns the members of obj, nil when it is not an object.
func metaMembersOf(obj json.RawMessage) MetaMembers {
	if rawjson.Kind(obj) != '{' {
		return nil
	}
	return AppendMembers(nil, obj)
}

// Get returns the value of key (the last, when it repeats, as a map keeps
// it), nil when absent.
func (mm MetaMembers) Get(key string) json.RawMessage { return Lookup(mm, key) }

// Lookup is get, and whether key is there.
func (mm MetaMembers) Lookup(key string) (json.RawMessage, bool) {
	v := mm.Get(key)
	return v, v != nil
}

// Has reports whether key is there.
func (mm MetaMembers) Has(key string) bool { return mm.Get(key) != nil }

// Decode unmarshals raw into v, reporting success; rules use it for the
// params or result members they judge. It is json.Unmarshal without the
// copies: strings and raw members of v share raw's bytes, which a trace
// never changes once read (each event holds its own copy of its line).
func Decode(raw json.RawMessage, v any) bool {
	if raw == nil {
		return false
	}
	rest, err := json.Parse(raw, v, json.ZeroCopy)
	return err == nil && len(rest) == 0
}

// Where names the message's place in its trace for a finding.
func (m *Msg) Where() *trace.Event { return m.Event }

// CompareSent orders two requests by when they were sent: by seq, then,
// for the elements of one batch, which share it, by their place in it.
func (r *Request) CompareSent(other *Request) int {
	return cmp.Or(cmp.Compare(r.Seq, other.Seq), cmp.Compare(r.Order, other.Order))
}
