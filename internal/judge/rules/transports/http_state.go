package transports

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// maxOpenExchanges bounds how many HTTP exchanges the transport rules
// remember; a long trace forgets its oldest ones, which have long finished.
const maxOpenExchanges = 4096

// maxBodyMessages bounds the messages kept of one request body: more than
// one is already a finding.
const maxBodyMessages = 8

// httpExchange is one HTTP request, its response, and the stream of
// messages that came back, as far as the trace has shown them.
type httpExchange struct {
	ID       int64
	Request  *trace.Event
	Response *trace.Event
	// Body holds the messages the request carried, as copies (Msg.kept);
	// BodyRaw is set when it carried bytes that were not JSON.
	Body    []*message.Msg
	BodyRaw bool
	// SSE is set when the response is an event stream.
	SSE bool
	// Frames counts what came on the response after its head: messages and
	// frames without data.
	Frames     int
	SawEventID bool
	Retry      *int64
	// Answered is set once the response to the request this stream serves
	// has been sent; Late is set for an event that came after it.
	Answered bool
	Late     bool
	Ended    *trace.Event
	// Resumes is, for a GET with Last-Event-ID, the stream it resumes.
	Resumes *httpExchange
	// Dropped is, for a POST, its latest stream the server closed before
	// the response; Reconnected is set once the client resumed after it.
	Dropped     *httpExchange
	Reconnected bool
	// Reply is what the request's headers oblige the server's reply to be.
	Reply *replyExpectation
	// done remembers which once-per-exchange findings were made.
	done map[string]bool
}

// once reports whether key is new for this exchange, and remembers it.
func (x *httpExchange) once(key string) bool {
	if x.done == nil {
		x.done = map[string]bool{}
	}
	if x.done[key] {
		return false
	}
	x.done[key] = true
	return true
}

// Method is the request's HTTP method.
func (x *httpExchange) Method() string { return x.Request.Method }

// Header returns a request header.
func (x *httpExchange) Header(name string) (string, bool) {
	v, ok := x.Request.Headers[name]
	return v, ok
}

// Status is the response status, 0 before the response head.
func (x *httpExchange) Status() int {
	if x.Response == nil {
		return 0
	}
	return x.Response.Status
}

// OK reports whether the response status is 2xx.
func (x *httpExchange) OK() bool { return x.Status() >= 200 && x.Status() < 300 }

// Call returns the one JSON-RPC request the POST carried, or nil.
func (x *httpExchange) Call() *message.Msg {
	if len(x.Body) != 1 || x.Body[0].Kind != message.KindRequest || x.Body[0].InBatch {
		return nil
	}
	return x.Body[0]
}

// Origin is the stream a resumption continues, or the exchange itself.
func (x *httpExchange) Origin() *httpExchange {
	if x.Resumes != nil {
		return x.Resumes
	}
	return x
}

// IsPost reports whether the exchange is a POST.
func (x *httpExchange) IsPost() bool { return x.Request.Method == "POST" }

// IsGet reports whether the exchange is a GET.
func (x *httpExchange) IsGet() bool { return x.Request.Method == "GET" }

// exchangeBook keeps the exchanges of a trace by id, oldest evicted first.
type exchangeBook struct {
	byID  map[int64]*httpExchange
	order []int64
}

func (b *exchangeBook) Get(id int64) *httpExchange {
	if id == 0 {
		return nil
	}
	return b.byID[id]
}

func (b *exchangeBook) Add(x *httpExchange) {
	if b.byID == nil {
		b.byID = map[int64]*httpExchange{}
	}
	if len(b.order) >= maxOpenExchanges {
		delete(b.byID, b.order[0])
		b.order = b.order[1:]
	}
	b.byID[x.ID] = x
	b.order = append(b.order, x.ID)
}

// Each calls fn for every remembered exchange, oldest first.
func (b *exchangeBook) Each(fn func(*httpExchange)) {
	for _, id := range b.order {
		if x := b.byID[id]; x != nil {
			fn(x)
		}
	}
}
