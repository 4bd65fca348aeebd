package transports

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// The HTTP with SSE transport of 2024-11-05: the client opens an SSE
// connection with a GET, the server's first event on it names the endpoint
// (an `endpoint` event whose data is a URI), the client POSTs every message
// there, and the server's messages come back as SSE message events on the
// GET's stream. A trace records it as HTTP events like streamable HTTP's;
// only a 2024-11-05 session is read this way, and only once a GET opened
// an SSE connection before any POST was answered with success (a session
// that POSTed first is streamable HTTP, which this revision does not have,
// or a client probing for it before it falls back).
var httpLegacyChecks = []engine.Check{
	{ID: "http-sse.two-endpoints", Summary: "the server answers the client's GET with an event stream and its POSTs at the endpoint it named with success, and sends its messages on the stream as message events, not in POST responses"},
	{ID: "http-sse.endpoint-event", Summary: "the first event on the SSE connection is an endpoint event whose data is a URI, sent before any message"},
	{ID: "http-sse.post-to-endpoint", Summary: "once the server named its endpoint, every client message is an HTTP POST to it"},
}

func init() {
	engine.Register(engine.RuleSpec{Checks: httpLegacyChecks, New: func() engine.Rule { return &legacyRule{} },
		Messages: engine.HandshakeOnly, Sees: []engine.Sight{{Transport: trace.StreamableHTTP}}})
}

// maxLegacyExchanges bounds the requests the rule remembers; a long trace
// forgets its oldest, which have long been answered.
const maxLegacyExchanges = 4096

// legacyRule is one session's view of its HTTP with SSE connections.
type legacyRule struct {
	engine.BaseRule
	// requests holds the client's request heads by exchange.
	requests *engine.FifoMap[*trace.Event]
	// conns holds the SSE connections (GET exchanges answered with an
	// event stream) by exchange.
	conns *engine.FifoMap[*legacyConn]
	// postedOK is set once a POST was answered with success before any
	// SSE connection: the session is not HTTP with SSE.
	postedOK bool
	// endpoints are the endpoints the server named, as request targets.
	endpoints []engine.LegacyTarget
}

// legacyConn is one SSE connection: its GET and what it carried so far.
type legacyConn struct {
	get      *trace.Event
	endpoint bool
	// judged is set once the endpoint clause decided this connection.
	judged bool
	closed bool
}

func (r *legacyRule) active(s *engine.Session, ev *trace.Event) bool {
	if s.Revision != engine.LegacyRevision || ev.Transport != trace.StreamableHTTP {
		return false
	}
	if r.requests == nil {
		r.requests = engine.NewFIFO[*trace.Event](maxLegacyExchanges)
		r.conns = engine.NewFIFO[*legacyConn](maxLegacyExchanges)
	}
	return true
}

func (r *legacyRule) HTTP(s *engine.Session, ev *trace.Event) {
	if !r.active(s, ev) || ev.Exchange == 0 {
		return
	}
	switch {
	case IsHTTPRequest(ev):
		r.requests.Put(engine.ExchangeKey(ev), ev)
	case ev.Direction == trace.ServerToClient && ev.Status != 0:
		r.response(s, ev)
	case ev.Direction == trace.ServerToClient && ev.SSE != nil:
		r.frame(s, ev)
	}
}

// response judges a response head: a GET's opens an SSE connection, a
// POST's to a named endpoint shows the POST endpoint there.
func (r *legacyRule) response(s *engine.Session, ev *trace.Event) {
	req, ok := r.requests.Get(engine.ExchangeKey(ev))
	if !ok {
		return
	}
	switch req.Method {
	case "GET":
		r.getAnswered(s, req, ev)
	case "POST":
		r.postAnswered(s, req, ev)
	}
}

func (r *legacyRule) getAnswered(s *engine.Session, req, ev *trace.Event) {
	if r.postedOK {
		return
	}
	ok := ev.Status >= 200 && ev.Status < 300
	stream := mediaType(ev.Headers["content-type"]) == "text/event-stream"
	switch {
	case ok && stream:
		r.conns.Put(engine.ExchangeKey(ev), &legacyConn{get: req})
		s.Pass("http-sse.two-endpoints", spec.Server)
	case ok:
		s.Fail("http-sse.two-endpoints", spec.Server, ev,
			"the server answered the client's GET of %q with %d and content type %q, not an SSE stream", engine.Clip([]byte(req.Path)), ev.Status, ev.Headers["content-type"])
	case ev.Status == 404 || ev.Status == 405:
		s.Fail("http-sse.two-endpoints", spec.Server, ev,
			"the server answered the client's GET of %q with %d: it provides no SSE endpoint there", engine.Clip([]byte(req.Path)), ev.Status)
	}
}

func (r *legacyRule) postAnswered(s *engine.Session, req, ev *trace.Event) {
	ok := ev.Status >= 200 && ev.Status < 300
	if !r.connected() {
		r.postedOK = r.postedOK || ok
		return
	}
	if !r.named(req) || !r.Open() {
		return
	}
	s.Expect("http-sse.two-endpoints", ok || (ev.Status != 404 && ev.Status != 405), spec.Server, ev,
		"the server answered a POST to the endpoint it named, %q, with %d while its SSE connection was open", engine.Clip([]byte(req.Path)), ev.Status)
}

// frame judges an SSE frame that carries no message: the endpoint event,
// or a frame of fields only.
func (r *legacyRule) frame(s *engine.Session, ev *trace.Event) {
	c, ok := r.conns.Get(engine.ExchangeKey(ev))
	if !ok || !engine.IsEndpointFrame(ev) {
		return
	}
	if c.endpoint {
		return
	}
	c.endpoint = true
	target, err := engine.EndpointTarget(c.get, engine.FrameData(ev))
	if err == "" {
		r.endpoints = append(r.endpoints, target)
	}
	c.judged = true
	s.Expect("http-sse.endpoint-event", err == "", spec.Server, ev,
		"the endpoint event's data %q is not a URI the client can POST to: %s", engine.Clip([]byte(engine.FrameData(ev))), err)
}

func (r *legacyRule) Message(s *engine.Session, m *message.Msg) {
	if !r.active(s, m.Event) || m.Event.Exchange == 0 {
		return
	}
	if m.From == spec.Client {
		r.clientMessage(s, m)
		return
	}
	r.serverMessage(s, m)
}

// serverMessage judges where a server message travelled: as a message
// event on an SSE connection, after the endpoint event.
func (r *legacyRule) serverMessage(s *engine.Session, m *message.Msg) {
	ev := m.Event
	if c, ok := r.conns.Get(engine.ExchangeKey(ev)); ok {
		if !c.judged {
			c.judged = true
			s.Fail("http-sse.endpoint-event", spec.Server, ev,
				"the server sent %s on the SSE connection before any endpoint event", messageWord(m))
		}
		name := ""
		if ev.SSE != nil {
			name = ev.SSE.Event
		}
		s.Expect("http-sse.two-endpoints", name == "" || name == "message", spec.Server, ev,
			"the server sent %s as an SSE %q event, not a message event", messageWord(m), engine.Clip([]byte(name)))
		return
	}
	req, ok := r.requests.Get(engine.ExchangeKey(ev))
	if ok && req.Method == "POST" && r.Open() && r.named(req) {
		s.Fail("http-sse.two-endpoints", spec.Server, ev,
			"the server sent %s in the response to a POST; in HTTP with SSE its messages travel on the SSE connection", messageWord(m))
	}
}

// clientMessage judges that a client message, once the server named its
// endpoint, went there as a POST. Messages before it are not judged: the
// sentence binds the subsequent ones, and a client may first probe for the
// streamable HTTP transport.
func (r *legacyRule) clientMessage(s *engine.Session, m *message.Msg) {
	if len(r.endpoints) == 0 {
		return
	}
	req, ok := r.requests.Get(engine.ExchangeKey(m.Event))
	if !ok {
		return
	}
	if req.Method != "" && req.Method != "POST" {
		s.Fail("http-sse.post-to-endpoint", spec.Client, m.Event,
			"the client sent %s in an HTTP %s request, not a POST", messageWord(m), engine.Clip([]byte(req.Method)))
		return
	}
	if req.Path == "" {
		return
	}
	s.Expect("http-sse.post-to-endpoint", r.named(req), spec.Client, m.Event,
		"the client POSTed %s to %q, not to the endpoint the server named (%s)", messageWord(m), engine.Clip([]byte(req.Path)), r.endpoints[len(r.endpoints)-1])
}

func (r *legacyRule) Lifecycle(s *engine.Session, ev *trace.Event) {
	if !r.active(s, ev) || ev.Exchange == 0 {
		return
	}
	c, ok := r.conns.Get(engine.ExchangeKey(ev))
	if !ok || c.closed {
		return
	}
	c.closed = true
	if !c.judged && ev.Direction == trace.ServerToClient {
		c.judged = true
		s.Fail("http-sse.endpoint-event", spec.Server, ev, "the server ended the SSE connection without sending an endpoint event")
	}
}

func (r *legacyRule) End(s *engine.Session) {
	if r.conns == nil {
		return
	}
	r.conns.Each(func(_ string, c *legacyConn) {
		if !c.judged && !c.closed {
			c.judged = true
			s.Fail("http-sse.endpoint-event", spec.Server, c.get, "the SSE connection the client opened here never carried an endpoint event")
		}
	})
}

// connected reports whether the session opened an SSE connection.
func (r *legacyRule) connected() bool { return len(r.conns.M) > 0 }

// Open reports whether an SSE connection is still open.
func (r *legacyRule) Open() bool {
	open := false
	r.conns.Each(func(_ string, c *legacyConn) { open = open || !c.closed })
	return open
}

// named reports whether a request went to an endpoint the server named. A
// request whose recorder kept no path (the core format) is taken to: once
// the endpoint is named, the client's POSTs of the session go there.
func (r *legacyRule) named(req *trace.Event) bool {
	if req.Path == "" {
		return len(r.endpoints) > 0
	}
	for _, t := range r.endpoints {
		if t.Matches(req.Path) {
			return true
		}
	}
	return false
}

func messageWord(m *message.Msg) string {
	if d := engine.Describe(m); d != "" {
		return m.Kind.String() + " " + d
	}
	return m.Kind.String()
}
