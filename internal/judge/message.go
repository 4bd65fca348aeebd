package judge

import (
	"bytes"
	"strconv"

	"github.com/segmentio/encoding/json"

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

	// Problem says why a message is KindInvalid.
	Problem string
	// Body is the message's own JSON text (one element, for a batch).
	Body []byte

	// Decoded _meta members, computed on first use: many rules ask.
	paramsMeta, resultMeta         map[string]json.RawMessage
	paramsMetaDone, resultMetaDone bool

	// Request is, for a response, the request it answers (nil when none is
	// known); Answered is set when that request already had a response.
	Request  *Request
	Answered bool
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
	// Data lets rules attach per-request facts (keyed by rule).
	Data map[string]any
}

// Peer returns the party that must answer a request sent by p.
func Peer(p spec.Party) spec.Party {
	if p == spec.Server {
		return spec.Client
	}
	return spec.Server
}

type wireMsg struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// parseMessages turns a message event into its JSON-RPC messages: one, or the
// elements of a batch.
func parseMessages(ev *trace.Event) []*Msg {
	from := spec.Client
	if ev.Direction == trace.ServerToClient {
		from = spec.Server
	}
	if ev.Payload == nil {
		return []*Msg{{Event: ev, From: from, Kind: KindInvalid, Problem: "the bytes are not JSON"}}
	}
	body := bytes.TrimLeft(ev.Payload, " \t\r\n")
	if len(body) > 0 && body[0] == '[' {
		return parseBatch(ev, from, body)
	}
	return []*Msg{parseOne(ev, from, body)}
}

func parseBatch(ev *trace.Event, from spec.Party, body []byte) []*Msg {
	var elems []json.RawMessage
	if err := json.Unmarshal(body, &elems); err != nil || len(elems) == 0 {
		return []*Msg{{Event: ev, From: from, Kind: KindInvalid, Problem: "an empty or unreadable batch"}}
	}
	out := make([]*Msg, 0, len(elems))
	for _, e := range elems {
		m := parseOne(ev, from, e)
		m.InBatch = true
		out = append(out, m)
	}
	return out
}

func parseOne(ev *trace.Event, from spec.Party, body []byte) *Msg {
	m := &Msg{Event: ev, From: from, Body: body}
	var w wireMsg
	if err := json.Unmarshal(body, &w); err != nil {
		m.Problem = "not a JSON object"
		return m
	}
	if w.JSONRPC != nil {
		m.JSONRPC, m.HasJSONRPC = *w.JSONRPC, true
	}
	m.ID, m.Params, m.Result = w.ID, w.Params, w.Result
	m.IDKey = idKey(w.ID)
	if w.Method != nil {
		m.Method = *w.Method
	}
	m.Kind, m.Problem = classify(&w)
	if w.Error != nil && m.Kind == KindError {
		m.Error = &RPCError{}
		if json.Unmarshal(w.Error, m.Error) != nil {
			m.Error = nil
		}
	}
	return m
}

func classify(w *wireMsg) (MsgKind, string) {
	hasResult, hasError := w.Result != nil, w.Error != nil
	switch {
	case w.Method != nil && (hasResult || hasError):
		return KindInvalid, "a message with both a method and a result or error"
	case w.Method != nil && w.ID == nil:
		return KindNotification, ""
	case w.Method != nil:
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
	return KindInvalid, "neither a request, a notification nor a response"
}

// idKey gives an id a canonical form: integers by value (1 and 1.0 differ in
// JSON-RPC, so only the literal text counts), strings by their decoded value.
func idKey(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return "s:" + s
		}
	}
	return "n:" + string(raw)
}

// ParamsMeta decodes params._meta into v; false when absent or malformed.
func (m *Msg) ParamsMeta() map[string]json.RawMessage {
	if !m.paramsMetaDone {
		m.paramsMeta, m.paramsMetaDone = metaOf(m.Params), true
	}
	return m.paramsMeta
}

// ResultMeta returns result._meta.
func (m *Msg) ResultMeta() map[string]json.RawMessage {
	if !m.resultMetaDone {
		m.resultMeta, m.resultMetaDone = metaOf(m.Result), true
	}
	return m.resultMeta
}

var metaMemberName = []byte(`"_meta"`)

func metaOf(obj json.RawMessage) map[string]json.RawMessage {
	// Most messages carry no _meta at all; a byte search is far cheaper than
	// decoding the object to find that out.
	if obj == nil || !bytes.Contains(obj, metaMemberName) {
		return nil
	}
	var w struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(obj, &w) != nil {
		return nil
	}
	return w.Meta
}

// Decode unmarshals raw into v, reporting success; rules use it for the
// params or result members they judge.
func Decode(raw json.RawMessage, v any) bool {
	return raw != nil && json.Unmarshal(raw, v) == nil
}

// Where names the message's place in its trace for a finding.
func (m *Msg) Where() *trace.Event { return m.Event }
