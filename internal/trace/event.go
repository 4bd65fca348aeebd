// Package trace defines the mcpverdict trace format: JSON Lines, one event per
// line, each event numbered by the recorder that wrote it. Everything else in
// mcpverdict reads traces; only the capture layer writes them.
package trace

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/jsonrpc"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// Direction says which party sent the bytes an event describes.
type Direction string

// The two directions of a session.
const (
	ClientToServer Direction = "client-to-server"
	ServerToClient Direction = "server-to-client"
)

// Transport names the MCP transport the session ran over.
type Transport string

// The transports a trace can record.
const (
	Stdio          Transport = "stdio"
	StreamableHTTP Transport = "streamable-http"
)

// Kind says what an event records.
type Kind string

// The kinds of event.
const (
	KindMessage   Kind = "message"
	KindHTTP      Kind = "http"
	KindLifecycle Kind = "lifecycle"
)

// Lifecycle names a transport or process event.
type Lifecycle string

// The lifecycle events a recorder writes.
const (
	TransportOpen  Lifecycle = "transport-open"
	TransportClose Lifecycle = "transport-close"
	TransportAbort Lifecycle = "transport-abort"
	ProcessExit    Lifecycle = "process-exit"
)

// SSEFrame keeps the fields of the server-sent-events frame that carried a
// message, so that event ids and retry hints survive the recording.
type SSEFrame struct {
	ID    *string `json:"id,omitempty"`
	Event string  `json:"event,omitempty"`
	Retry *int64  `json:"retry,omitempty"`
}

// Event is one line of a trace.
//
// The core fields (seq, direction, transport, kind and the kind's own fields)
// are the format tomtom215/mcp-conformance writes too; exchange, stream, sse,
// mono_ns, session and raw_base64 are extensions that readers may ignore.
type Event struct {
	Seq       int64     `json:"seq"`
	Direction Direction `json:"direction"`
	Transport Transport `json:"transport"`
	Kind      Kind      `json:"kind"`

	// Payload is the JSON-RPC message as it crossed the wire, with
	// insignificant whitespace removed. Raw replaces it when the bytes were
	// not JSON, and RawBase64 when they were not even UTF-8 text.
	Payload json.RawMessage `json:"payload,omitempty"`
	// asRead is the Payload the reader found well-formed JSON; the slice
	// itself, so that a Payload set afterwards is not taken for checked.
	// (It is not compacted: SetBody's payload, which a writer writes as it
	// is, while a payload read may hold whitespace.)
	asRead rawjson.Checked
	// rpc is where the reader found the payload's JSON-RPC members.
	rpc       jsonrpc.Note
	Raw       *string `json:"raw,omitempty"`
	RawBase64 string  `json:"raw_base64,omitempty"`

	// HTTP request and response fields. Header names are lower-cased; the
	// values of credential headers are never recorded.
	Method  string            `json:"method,omitempty"`
	Path    string            `json:"path,omitempty"`
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`

	// Lifecycle fields.
	Event    Lifecycle `json:"event,omitempty"`
	ExitCode *int      `json:"exit_code,omitempty"`
	Signal   string    `json:"signal,omitempty"`
	Reason   string    `json:"reason,omitempty"`

	// Exchange ties an HTTP request, its response and every message either
	// carried; Stream names the byte stream a message travelled on.
	Exchange int64     `json:"exchange,omitempty"`
	Stream   string    `json:"stream,omitempty"`
	SSE      *SSEFrame `json:"sse,omitempty"`
	MonoNS   int64     `json:"mono_ns,omitempty"`
	Session  string    `json:"session,omitempty"`

	// Line is where the reader found the event; it is not part of the format.
	Line int `json:"-"`

	// compacted is the payload as SetBody compacted it, which a writer
	// given the same bytes copies without scanning them again.
	compacted rawjson.Checked
}

// IsMessage reports whether the event carries a JSON-RPC message, parsed or not.
func (e *Event) IsMessage() bool { return e.Kind == KindMessage }

// CheckedPayload returns the Payload as Checked text when it is known to
// be well-formed JSON, so that a later scan need not check it again: the
// reader that read the event checked it, or SetBody made it. An event made
// or changed otherwise reports false, and its reader checks the Payload.
func (e *Event) CheckedPayload() (rawjson.Checked, bool) {
	if e.payloadAsRead() {
		return e.asRead, true
	}
	if e.payloadChecked() {
		return e.compacted, true
	}
	return rawjson.Checked{}, false
}

// payloadAsRead reports whether the Payload is the one the reader checked.
func (e *Event) payloadAsRead() bool { return sameSlice(e.Payload, e.asRead.Bytes()) }

// sameSlice reports whether a and b are the same bytes at the same
// address, and not empty.
func sameSlice(a, b []byte) bool { return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0] }
