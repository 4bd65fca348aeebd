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
//   - a client http event opens a new exchange;
//   - every later streamable-HTTP event without an exchange (the server's
//     http event, messages either way, lifecycle events) belongs to the
//     open exchange, until the next client http event;
//   - a client http event without a method is a POST when a client
//     message follows it in the same exchange (a request with a body);
//   - an inferred exchange's stream is named after its method, as the
//     recorder names them (post:N, get:N, delete:N).
//
// The inference is wrong where the recorder interleaved exchanges (SSE
// streams open side by side, a GET stream delivering while a POST is
// answered): their events are tied to whichever exchange opened last.
// Once an event carries an exchange id of its own the trace is taken to
// carry them all, and nothing more is inferred.
//
// Events before the first client http event cannot be tied; Untied counts
// them and keeps the line of the first.
type Exchanges struct {
	next     func() (*Event, error)
	ahead    *Event
	aheadErr error
	open     int64
	stream   string
	recorded bool
	// Inferred counts the exchanges opened by position.
	Inferred int64
	// Untied counts the streamable-HTTP events no exchange holds;
	// FirstUntied is the line of the first of them.
	Untied      int
	FirstUntied int
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
	x.open = x.Inferred
	ev.Exchange = x.open
	if ev.Method == "" {
		x.ahead, x.aheadErr = x.next()
		if carriesBody(ev, x.ahead) {
			ev.Method = "POST"
		}
	}
	x.stream = ""
	if ev.Method != "" {
		x.stream = strings.ToLower(ev.Method) + ":" + strconv.FormatInt(x.open, 10)
	}
	if ev.Stream == "" {
		ev.Stream = x.stream
	}
}

// carriesBody reports whether the event after a request head is a client
// message the request carried.
func carriesBody(head, after *Event) bool {
	return after != nil && after.Kind == KindMessage && after.Direction == ClientToServer &&
		after.Transport == head.Transport && after.Exchange == 0 && after.Session == head.Session
}

// tie puts an event in the open exchange and its stream.
func (x *Exchanges) tie(ev *Event) {
	if x.open == 0 {
		x.Untied++
		if x.FirstUntied == 0 {
			x.FirstUntied = ev.Line
		}
		return
	}
	ev.Exchange = x.open
	if ev.Stream == "" {
		ev.Stream = x.stream
	}
}
