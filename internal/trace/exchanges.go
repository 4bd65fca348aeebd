package trace

import (
	"strconv"
	"strings"
)

// Exchanges ties the streamable-HTTP events of a trace that carries no
// exchange ids (the core format other recorders write) to HTTP exchanges
// by their position, so that the transport clauses see requests, their
// responses and the messages they carried as mcpverdict's own recorder
// writes them:
//
//   - a client http event opens a new exchange, and the client messages
//     that follow it are its body;
//   - a client http event without a method is a POST when a client
//     message follows it (a request with a body);
//   - a server http event with a status answers the newest exchange not
//     yet answered; an event-stream answer keeps its exchange open for
//     the SSE frames and messages that follow, until a server
//     transport-close; a 202 or 204 answer, or one without a content
//     type, ends it at once; any other answer ends it with the one server
//     message that follows;
//   - a server message, SSE frame or close belongs to the newest
//     exchange still open;
//   - an inferred exchange's stream is named after its method, as the
//     recorder names them (post:N, get:N, delete:N).
//
// The inference is wrong where two event streams are open at once (a GET
// stream delivering while a POST's stream is answered): their events are
// tied to the newer. Once an event carries an exchange id of its own the
// trace is taken to carry them all, and nothing more is inferred.
//
// Messages and http events before the first client http event cannot be
// tied; Untied counts them and keeps the line of the first.
type Exchanges struct {
	next     func() (*Event, error)
	ahead    *Event
	aheadErr error
	// open holds the exchanges that can still take events, oldest first.
	open     []*inferredExchange
	recorded bool
	// Inferred counts the exchanges opened by position.
	Inferred int64
	// Untied counts the streamable-HTTP events no exchange holds;
	// FirstUntied is the line of the first of them.
	Untied      int
	FirstUntied int
}

// inferredExchange is one exchange opened by position.
type inferredExchange struct {
	id       int64
	stream   string
	answered bool
	// stream answers stay open until closed; others take one message.
	eventStream bool
}

// TieExchanges reads events from next and ties them to exchanges.
func TieExchanges(next func() (*Event, error)) *Exchanges {
	return &Exchanges{next: next}
}

// Next returns the next event, tied to its exchange; errors are next's.
func (x *Exchanges) Next() (*Event, error) {
	ev, err := x.read()
	if err != nil || x.recorded || ev.Transport != StreamableHTTP {
		return ev, err
	}
	if ev.Exchange != 0 {
		x.recorded = true
		return ev, nil
	}
	if ev.Kind == KindHTTP && ev.Direction == ClientToServer {
		x.openExchange(ev)
		return ev, nil
	}
	x.tie(ev)
	return ev, nil
}

// read returns the event looked ahead at, if any, else the next one.
func (x *Exchanges) read() (*Event, error) {
	if x.ahead != nil || x.aheadErr != nil {
		ev, err := x.ahead, x.aheadErr
		x.ahead, x.aheadErr = nil, nil
		return ev, err
	}
	return x.next()
}

// openExchange gives a request head a new exchange, and a method when its
// recorder gave none and a client message follows it.
func (x *Exchanges) openExchange(ev *Event) {
	x.Inferred++
	ev.Exchange = x.Inferred
	if ev.Method == "" {
		x.ahead, x.aheadErr = x.next()
		if carriesBody(ev, x.ahead) {
			ev.Method = "POST"
		}
	}
	open := &inferredExchange{id: x.Inferred}
	if ev.Method != "" {
		open.stream = strings.ToLower(ev.Method) + ":" + strconv.FormatInt(open.id, 10)
	}
	if ev.Stream == "" {
		ev.Stream = open.stream
	}
	x.open = append(x.open, open)
}

// carriesBody reports whether the event after a request head is a client
// message the request carried.
func carriesBody(head, after *Event) bool {
	return after != nil && after.Kind == KindMessage && after.Direction == ClientToServer &&
		after.Transport == head.Transport && after.Exchange == 0 && after.Session == head.Session
}

// tie puts an event in the exchange its position says it belongs to.
func (x *Exchanges) tie(ev *Event) {
	i := x.holder(ev)
	if i < 0 {
		if ev.Kind != KindLifecycle {
			x.Untied++
			if x.FirstUntied == 0 {
				x.FirstUntied = ev.Line
			}
		}
		return
	}
	open := x.open[i]
	ev.Exchange = open.id
	if ev.Stream == "" {
		ev.Stream = open.stream
	}
	if ev.Direction == ClientToServer && ev.Kind != KindLifecycle {
		return
	}
	switch {
	case ev.Kind == KindHTTP && ev.Status != 0:
		open.answered = true
		contentType := ev.Headers["content-type"]
		open.eventStream = strings.Contains(contentType, "text/event-stream")
		if ev.Status == 202 || ev.Status == 204 || contentType == "" {
			x.end(i)
		}
	case ev.Kind == KindLifecycle, ev.Kind == KindMessage && !open.eventStream:
		x.end(i)
	}
}

// holder returns the index in open of the exchange an event belongs to,
// or -1. Client messages are the body of the newest request; a server's
// answer head goes to the newest request not yet answered; anything else
// the server sends goes to the newest exchange still open.
func (x *Exchanges) holder(ev *Event) int {
	if len(x.open) == 0 {
		return -1
	}
	newest := len(x.open) - 1
	if ev.Kind == KindLifecycle {
		// Either party closes or drops a stream; only an event stream is
		// open long enough to be closed.
		if !x.open[newest].eventStream {
			return -1
		}
		return newest
	}
	if ev.Direction == ClientToServer {
		return newest
	}
	if ev.Kind == KindHTTP && ev.Status != 0 {
		for i := newest; i >= 0; i-- {
			if !x.open[i].answered {
				return i
			}
		}
	}
	return newest
}

// end closes the exchange at index i: no later event belongs to it.
func (x *Exchanges) end(i int) {
	x.open = append(x.open[:i], x.open[i+1:]...)
}
