package transports

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Bounds of what the streamable HTTP rules remember across a trace.
const (
	maxHTTPSessions = 1024
	maxEventIDs     = 1 << 14
	maxSentMessages = 1 << 14
)

// httpTrace is what the streamable HTTP rules know of a whole trace: its
// exchanges, the MCP endpoint, the sessions the server assigned, the SSE
// event ids it sent. A client may hold several sessions, and several
// clauses bind what happens between them, so this spans the trace.
type httpTrace struct {
	exchanges exchangeBook
	// endpoint is the path of the first POST: the MCP endpoint.
	endpoint string
	sessions *engine.FifoMap[*httpSession]
	// eventIDs maps each SSE event id to where it was first sent.
	eventIDs *engine.FifoMap[eventOrigin]
	// sent maps a server message's identity to the stream that carried it,
	// by id: holding the exchange would keep its heads and body alive for
	// as long as the message is remembered.
	sent *engine.FifoMap[streamOf]
	// owed404 counts sessions whose 404 the client has yet to follow with
	// a new initialize.
	owed404 int
	// supported is the supportedVersions of the last server/discover result.
	supported []string
	// lastClientRequest is the client's latest HTTP request head.
	lastClientRequest *httpExchange
	// cancelled holds the requests the client cancelled, by session and id.
	cancels *engine.FifoMap[bool]
	// awaiting lists POSTs whose stream the server closed before their
	// response, which the client should resume; drops lists POST streams
	// the client dropped before their response.
	awaiting []*httpExchange
	drops    []*httpExchange
	// relist tracks tools whose call got a HeaderMismatch (see mismatch-relist).
	relist *engine.FifoMap[int]
	// modernError is a 400 carrying a modern JSON-RPC error the client has
	// not yet acted on.
	modernError *trace.Event
	ended       bool
}

// streamOf names an exchange, and the stream it continues, by their ids.
type streamOf struct{ id, origin int64 }

func streamOfExchange(x *httpExchange) streamOf { return streamOf{id: x.ID, origin: x.Origin().ID} }

// eventOrigin is where an SSE event id was first sent.
type eventOrigin struct {
	x    *httpExchange
	seq  int64
	line int
}

func newHTTPTrace() *httpTrace {
	return &httpTrace{
		sessions: engine.NewFIFO[*httpSession](maxHTTPSessions),
		eventIDs: engine.NewFIFO[eventOrigin](maxEventIDs),
		sent:     engine.NewFIFO[streamOf](maxSentMessages),
		cancels:  engine.NewFIFO[bool](maxSentMessages),
		relist:   engine.NewFIFO[int](engine.MaxListedTools),
	}
}

// openExchange folds in a request head.
func (t *httpTrace) openExchange(ev *trace.Event) *httpExchange {
	x := &httpExchange{ID: ev.Exchange, Request: ev.Detached()}
	if ev.Method == "POST" && t.endpoint == "" {
		t.endpoint = ev.Path
	}
	if id, ok := x.Header("last-event-id"); ok {
		if o, known := t.eventIDs.Get(eventKey(ev.Session, id)); known {
			x.Resumes = o.x.Origin()
		}
	}
	if ev.Exchange != 0 {
		t.exchanges.Add(x)
	}
	t.lastClientRequest = x
	return x
}

// bodyMessage folds in a message the client sent in a request body.
func (t *httpTrace) bodyMessage(m *message.Msg) *httpExchange {
	x := t.exchanges.Get(m.Event.Exchange)
	if x == nil || x.Response != nil {
		return x
	}
	if m.Event.Payload == nil {
		x.BodyRaw = true
	} else if len(x.Body) < maxBodyMessages {
		x.Body = append(x.Body, m.Kept())
	}
	return x
}

// respond folds in a response head.
func (t *httpTrace) respond(ev *trace.Event) *httpExchange {
	x := t.exchanges.Get(ev.Exchange)
	if x == nil {
		return nil
	}
	x.Response = ev.Detached()
	x.SSE = mediaType(ev.Headers["content-type"]) == "text/event-stream"
	return x
}

// streamed folds in a message or a data-less SSE frame the server sent on
// an exchange's response.
func (t *httpTrace) streamed(ev *trace.Event, m *message.Msg) *httpExchange {
	x := t.exchanges.Get(ev.Exchange)
	if x == nil {
		return nil
	}
	x.Frames++
	x.Late = x.Answered
	if ev.SSE != nil {
		t.noteFrame(x, ev)
	}
	if m != nil && answers(m, x.Origin()) {
		x.Answered, x.Origin().Answered = true, true
	}
	return x
}

func (t *httpTrace) noteFrame(x *httpExchange, ev *trace.Event) {
	if ev.SSE.Retry != nil {
		x.Retry = ev.SSE.Retry
	}
	if ev.SSE.ID == nil || *ev.SSE.ID == "" {
		return
	}
	x.SawEventID = true
	key := eventKey(ev.Session, *ev.SSE.ID)
	if _, known := t.eventIDs.Get(key); !known {
		t.eventIDs.Put(key, eventOrigin{x: x, seq: ev.Seq, line: ev.Line})
	}
}

// answers reports whether m is the response to the request x carried.
func answers(m *message.Msg, x *httpExchange) bool {
	call := x.Call()
	return call != nil && m.Request != nil && (m.Kind == message.KindResult || m.Kind == message.KindError) &&
		m.Request.Seq == call.Event.Seq && m.Request.IDKey == call.IDKey
}

// ended folds in the end of an exchange's response stream.
func (t *httpTrace) closeStream(ev *trace.Event) *httpExchange {
	x := t.exchanges.Get(ev.Exchange)
	if x != nil && x.Ended == nil {
		x.Ended = ev.Detached()
	}
	return x
}

// eventKey scopes an SSE event id to its session: ids are unique per
// session, not per trace.
func eventKey(session, id string) string { return session + "\x00" + id }
