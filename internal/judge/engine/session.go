package engine

import (
	"encoding/json"
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Phase is where a session stands in the lifecycle.
type Phase int

// The lifecycle phases, in order.
const (
	// PhaseStart: nothing of the handshake seen yet.
	PhaseStart Phase = iota
	// PhaseInitializing: the client sent initialize; no result yet.
	PhaseInitializing
	// PhaseInitialized: the server answered initialize; the client has not
	// yet sent notifications/initialized.
	PhaseInitialized
	// PhaseOperating: notifications/initialized sent, or a 2026-07-28
	// session, which has no handshake.
	PhaseOperating
	// PhaseClosed: the transport closed or aborted.
	PhaseClosed
)

// Session is the state of one MCP session as the judge replays it. The engine
// keeps it; rules read it and report through it.
type Session struct {
	Key       string
	Transport trace.Transport
	Revision  spec.Revision
	Phase     Phase

	// InitRequest and InitResult are copies (Msg.kept) of the handshake's
	// messages, which the session keeps past their turn.
	InitRequest *message.Msg
	InitResult  *message.Msg
	// Negotiated is the protocolVersion of the initialize result.
	Negotiated string
	ClientCaps Caps
	ServerCaps Caps
	// InitializedSent is set once the client sent notifications/initialized.
	InitializedSent bool

	pending pendingRequests
	Used    [2]message.IDSet
	// requestsSeen counts the requests tracked, to number them in order.
	requestsSeen int64

	Run      *run
	rules    []Rule
	dispatch dispatchTable // which of rules judge each class of message
	// stateless is Stateless's answer, fixed with the revision.
	stateless bool
	Current   *trace.Event
}

func NewSession(key string, r *run) *Session {
	return &Session{Key: key, Revision: r.revision, stateless: r.revision.Stateless(),
		Run: r}
}

// Stateless reports whether the session runs under a revision without the
// initialize handshake. Rules ask on every message, so the answer is kept
// rather than comparing revisions each time.
func (s *Session) Stateless() bool { return s.stateless }

// Pending returns the request a party sent with idKey, still unanswered.
func (s *Session) Pending(from spec.Party, idKey string) *message.Request {
	return s.pending.head(from, idKey)
}

// PendingRequests calls fn for every request still in flight.
func (s *Session) PendingRequests(fn func(*message.Request)) { s.pending.Each(fn) }

// PendingKey names a request by its sender and id, for rules that keep
// facts about requests in flight.
func PendingKey(from spec.Party, idKey string) string { return string(from) + "|" + idKey }

// TakePending removes and returns what a rule keeps in byKey about req, a
// request in flight keyed by pendingKey. Every response asks, and rules
// seldom keep anything: the key is only built when byKey holds some.
func TakePending[V any](byKey map[string]V, req *message.Request) (V, bool) {
	if len(byKey) == 0 {
		var none V
		return none, false
	}
	key := PendingKey(req.From, req.IDKey)
	v, ok := byKey[key]
	delete(byKey, key)
	return v, ok
}

// RequestKey names a request by its sender and id as pendingKey does,
// without building a string.
type RequestKey struct {
	From  spec.Party
	IDKey string
}

func PartyIndex(p spec.Party) int {
	if p == spec.Server {
		return 1
	}
	return 0
}

// Pass records that check examined a subject of party and found it sound.
func (s *Session) Pass(check string, party spec.Party) {
	s.Run.result(check).Examined[PartyIndex(party)]++
}

// Fail records a finding of check against a party at ev.
func (s *Session) Fail(check string, against spec.Party, ev *trace.Event, format string, args ...any) {
	if ev == nil {
		ev = s.Current
	}
	r := s.Run.result(check)
	r.Examined[PartyIndex(against)]++
	r.Findings = append(r.Findings, Finding{
		Check: check, Party: against, Trace: s.Run.trace, Line: ev.Line, Seq: ev.Seq,
		Session: s.Key, Message: fmt.Sprintf(format, args...),
	})
}

// Expect passes check when ok holds and records a finding otherwise.
func (s *Session) Expect(check string, ok bool, against spec.Party, ev *trace.Event, format string, args ...any) {
	if ok {
		s.Pass(check, against)
		return
	}
	s.Fail(check, against, ev, format, args...)
}

// Note adds an observation to the report that no clause judges.
func (s *Session) Note(format string, args ...any) {
	s.Run.Notes = append(s.Run.Notes, fmt.Sprintf(format, args...))
}

// Annotate fills in what the engine knows about m before rules see it:
// the request a response answers (the oldest still in flight with its id),
// and whether that request was answered.
func (s *Session) Annotate(m *message.Msg) {
	if m.Kind != message.KindResult && m.Kind != message.KindError {
		return
	}
	r := s.pending.head(message.Peer(m.From), m.IDKey)
	for r != nil && r.Earlier != nil {
		r = r.Earlier
	}
	if r != nil {
		m.Request = r
		m.Answered = r.Answered
	}
}

// unlink removes an answered request from its id's chain of requests in
// flight.
func (s *Session) unlink(r *message.Request) {
	if head := s.pending.head(r.From, r.IDKey); head == r {
		s.pending.setHead(r.From, r.IDKey, r.Earlier)
	} else {
		for n := head; n != nil; n = n.Earlier {
			if n.Earlier == r {
				n.Earlier = r.Earlier
				break
			}
		}
	}
	r.Earlier = nil
}

// IDUsed reports whether the sender of m used m's id on an earlier request.
// The engine records ids after rules run, so during Message this is the
// state before m.
func (s *Session) IDUsed(m *message.Msg) bool { return s.Used[PartyIndex(m.From)].Contains(m.IDKey) }

// Advance moves the session's state past m, after every rule has seen it.
func (s *Session) Advance(m *message.Msg) {
	switch m.Kind {
	case message.KindRequest:
		s.Used[PartyIndex(m.From)].Add(m.IDKey)
		s.trackRequest(m)
		s.lifecycleRequest(m)
	case message.KindNotification:
		s.lifecycleNotification(m)
	case message.KindResult, message.KindError:
		s.settle(m)
	}
}

func (s *Session) trackRequest(m *message.Msg) {
	if m.IDKey == "" || m.IDKey == "n:null" {
		return
	}
	// The Request is new, all zeros: its fields are set one by one, where a
	// whole Request written over it would be built, cleared and copied.
	r := s.Run.requests.next()
	r.From, r.IDKey, r.Method, r.MethodNum, r.Params = m.From, m.IDKey, m.Method, m.MethodNum, m.Params
	r.Seq, r.Line, r.Session = m.Event.Seq, m.Event.Line, s.Key
	r.ProgressToken = progressTokenKeyed(m, &s.Run.IDs)
	// The members of params the rules read while judging the request go
	// with it, for the rules that judge its response not to read again:
	// copied, since they may lie in the Msg's own storage, which the next
	// message reuses.
	r.ParamsMembers = m.ParamsMembers
	s.requestsSeen++
	r.Order = s.requestsSeen
	r.ParamsMembers.Members = append(r.ParamsRoom[:0:len(r.ParamsRoom)], m.ParamsMembers.Members...)
	// A request that reuses the id of one still in flight (a violation of
	// its own) does not make the first disappear: the peer may answer both,
	// oldest first, and neither answer is a stray.
	r.Earlier = s.pending.head(m.From, m.IDKey)
	s.pending.setHead(m.From, m.IDKey, r)
	if s.Stateless() && m.From == spec.Client {
		s.ClientCaps = s.ClientCaps.merge(MetaCaps(m))
	}
}

func (s *Session) settle(m *message.Msg) {
	r := m.Request
	if r == nil {
		return
	}
	r.Answered = true
	s.unlink(r)
	switch {
	case r.Method == "initialize" && m.Kind == message.KindResult:
		s.InitResult = m.Kept()
		var res struct {
			ProtocolVersion string          `json:"protocolVersion"`
			Capabilities    json.RawMessage `json:"capabilities"`
		}
		message.Decode(m.Result, &res)
		s.Negotiated, s.ServerCaps = res.ProtocolVersion, ParseCaps(res.Capabilities)
		if s.Phase < PhaseInitialized {
			s.Phase = PhaseInitialized
		}
	case r.Method == "server/discover" && m.Kind == message.KindResult:
		var res struct {
			Capabilities json.RawMessage `json:"capabilities"`
		}
		message.Decode(m.Result, &res)
		s.ServerCaps = s.ServerCaps.merge(ParseCaps(res.Capabilities))
	}
}

func (s *Session) lifecycleRequest(m *message.Msg) {
	if m.Method != "initialize" || m.From != spec.Client {
		return
	}
	if s.InitRequest == nil {
		s.InitRequest = m.Kept()
		var p struct {
			Capabilities json.RawMessage `json:"capabilities"`
		}
		message.Decode(m.Params, &p)
		s.ClientCaps = ParseCaps(p.Capabilities)
	}
	if s.Phase < PhaseInitializing {
		s.Phase = PhaseInitializing
	}
}

func (s *Session) lifecycleNotification(m *message.Msg) {
	if m.Method != "notifications/initialized" || m.From != spec.Client {
		return
	}
	s.InitializedSent = true
	if s.Phase < PhaseOperating {
		s.Phase = PhaseOperating
	}
}

// ProgressToken is the key of a request's params._meta.progressToken, ""
// when it has none.
func ProgressToken(m *message.Msg) string { return progressTokenKeyed(m, nil) }

// progressTokenKeyed is progressToken that takes the key from ids.
func progressTokenKeyed(m *message.Msg, ids *message.IDKeys) string {
	if tok, ok := m.ParamsMeta().Lookup("progressToken"); ok {
		return ids.Key(tok)
	}
	return ""
}

func MetaCaps(m *message.Msg) Caps {
	return ParseCaps(m.ParamsMeta().Get("io.modelcontextprotocol/clientCapabilities"))
}
