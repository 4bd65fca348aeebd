package engine

import (
	"encoding/json"
	"sort"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Ask is a request the server puts to the client (roots/list,
// sampling/createMessage, elicitation/create). Handshake revisions send it as
// a JSON-RPC request; 2026-07-28 sends it as one entry of an
// InputRequiredResult's inputRequests, answered on the client's retry.
type Ask struct {
	Method string
	Params json.RawMessage
	// Key is the inputRequests key; empty for a JSON-RPC request.
	Key string
	// Caps are the client capabilities in force when the server asked: the
	// initialize request's, or those of the request the InputRequiredResult
	// answered. Nil when the trace does not show them.
	Caps  Caps
	Event *trace.Event
}

// Reply is the client's answer to an Ask: a JSON-RPC result or error, or an
// inputResponses entry of the retried request (which has no error form).
type Reply struct {
	Ask    *Ask
	Result json.RawMessage
	Error  *message.RPCError
	Event  *trace.Event
	// RetryID is, for an inputResponses entry, the id key of the retried
	// request; the server's response to it shows how it took the answer.
	RetryID string
	// Caps are, for an inputResponses entry, the capabilities the retried
	// request declares.
	Caps Caps
}

// maxOpenRounds bounds the InputRequiredResults kept while their retry is
// awaited; a client that never retries must not grow the session's state.
const maxOpenRounds = 64

// AskTracker turns the messages of a session into asks and replies for one
// method, whichever form they take.
type AskTracker struct {
	Method string
	Rounds []*InputRound
}

// InputRound is an InputRequiredResult awaiting the client's retry.
type InputRound struct {
	Method string  // the client request it answered
	State  *string // its requestState, when it had one
	Asks   map[string]*Ask
}

// Observe returns the asks of the tracker's method that m carries and the
// replies to them it gives.
func (t *AskTracker) Observe(s *Session, m *message.Msg) (asks []*Ask, replies []*Reply) {
	switch {
	case m.From == spec.Server && m.Kind == message.KindRequest && m.Method == t.Method:
		return []*Ask{{Method: m.Method, Params: m.Params, Caps: handshakeCaps(s), Event: m.Event}}, nil
	case m.From == spec.Server && m.Kind == message.KindResult && m.Request != nil:
		return t.inputRequests(m), nil
	case m.From == spec.Client && (m.Kind == message.KindResult || m.Kind == message.KindError):
		return nil, t.jsonrpcReply(s, m)
	case m.From == spec.Client && m.Kind == message.KindRequest:
		return nil, t.inputResponses(m)
	}
	return nil, nil
}

func (t *AskTracker) jsonrpcReply(s *Session, m *message.Msg) []*Reply {
	r := m.Request
	if r == nil || r.From != spec.Server || r.Method != t.Method || m.Answered {
		return nil
	}
	ask := &Ask{Method: r.Method, Params: r.Params, Caps: handshakeCaps(s)}
	return []*Reply{{Ask: ask, Result: m.Result, Error: m.Error, Event: m.Event}}
}

// handshakeCaps returns the client capabilities a handshake declared, empty
// but known once the initialize request was seen (or, on a stateless
// session, once any request declared some).
func handshakeCaps(s *Session) Caps {
	if s.ClientCaps != nil {
		return s.ClientCaps
	}
	if s.InitRequest != nil {
		return Caps{}
	}
	return nil
}

// inputRequests opens a round for an InputRequiredResult and returns its
// asks of the tracker's method, in key order.
func (t *AskTracker) inputRequests(m *message.Msg) []*Ask {
	// Most results are not InputRequiredResults; skip decoding those.
	if !m.MayBeInputRequired() {
		return nil
	}
	return t.openRound(m)
}

func (t *AskTracker) openRound(m *message.Msg) []*Ask {
	var res struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  *string                    `json:"requestState"`
	}
	if !message.Decode(m.Result, &res) || res.ResultType != "input_required" {
		return nil
	}
	round := &InputRound{Method: m.Request.Method, State: res.RequestState, Asks: map[string]*Ask{}}
	caps := RequestCaps(m.Request)
	var out []*Ask
	for _, key := range SortedKeysOf(res.InputRequests) {
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		message.Decode(res.InputRequests[key], &req)
		ask := &Ask{Method: req.Method, Params: req.Params, Key: key, Caps: caps, Event: m.Event}
		round.Asks[key] = ask
		if ask.Method == t.Method {
			out = append(out, ask)
		}
	}
	t.Open(round)
	return out
}

func (t *AskTracker) Open(r *InputRound) {
	if len(t.Rounds) >= maxOpenRounds {
		t.Rounds = t.Rounds[1:]
	}
	t.Rounds = append(t.Rounds, r)
}

// inputResponses closes the round a retried request answers and returns the
// replies it carries to the tracker's asks.
func (t *AskTracker) inputResponses(m *message.Msg) []*Reply {
	if !m.MayBeRetry() {
		return nil // neither inputResponses nor requestState: no retry
	}
	return t.closeRound(m)
}

func (t *AskTracker) closeRound(m *message.Msg) []*Reply {
	var p struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		RequestState   *string                    `json:"requestState"`
	}
	if !message.Decode(m.Params, &p) || (p.InputResponses == nil && p.RequestState == nil) {
		return nil
	}
	round := t.TakeRound(m.Method, p.RequestState)
	if round == nil {
		return nil
	}
	var out []*Reply
	for _, key := range SortedKeysOf(p.InputResponses) {
		if ask := round.Asks[key]; ask != nil && ask.Method == t.Method {
			out = append(out, &Reply{Ask: ask, Result: p.InputResponses[key], Event: m.Event, RetryID: m.IDKey, Caps: MetaCaps(m)})
		}
	}
	return out
}

// TakeRound removes and returns the newest open round of method whose
// requestState the retry echoes, or failing that the newest of method: a
// retry that alters the state is another check's finding, not a reason to
// lose its answers.
func (t *AskTracker) TakeRound(method string, state *string) *InputRound {
	found := -1
	for i := len(t.Rounds) - 1; i >= 0; i-- {
		if t.Rounds[i].Method != method {
			continue
		}
		if found < 0 {
			found = i
		}
		if sameState(t.Rounds[i].State, state) {
			found = i
			break
		}
	}
	if found < 0 {
		return nil
	}
	r := t.Rounds[found]
	t.Rounds = append(t.Rounds[:found], t.Rounds[found+1:]...)
	return r
}

func sameState(a, b *string) bool {
	return a == nil || b != nil && *a == *b
}

func SortedKeysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
