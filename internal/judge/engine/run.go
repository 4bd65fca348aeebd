package engine

import (
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// maxExchanges bounds the exchange-to-session map, so memory stays flat on
// a long HTTP trace; an exchange older than this has long finished.
const maxExchanges = 1 << 16

// run judges one trace under one revision, one event at a time.
type run struct {
	trace    string
	revision spec.Revision
	source   string
	reg      *spec.Registry

	Results  map[string]*checkResult
	recent   checkCache
	sessions map[string]*Session
	// lastSession is the session session found last.
	lastSession *Session
	order       []*Session
	byExchange  map[int64]*Session

	Wire *wireCheck
	// everyRule is Options.everyRule.
	everyRule bool
	// judgeEvent judges the messages of one event: message, or
	// messageWatched for tests that watch each message's turn end
	// (Options.afterTurn), chosen once so that the loop over messages
	// tests nothing for them.
	judgeEvent func(r *run, s *Session, ev *trace.Event)
	afterTurn  func(st *message.MsgStore, m *message.Msg)
	// statuses remembers recent HTTP response statuses by exchange.
	statuses ExchangeStatus
	// msgs holds the messages of the event being judged, in Msgs from
	// store, which are reused from event to event.
	msgs  []*message.Msg
	store message.MsgStore
	// IDs shares the keys of ids and progress tokens seen recently.
	IDs message.IDKeys
	// requests hands out the Requests the sessions track.
	requests requestArena
	// Facts holds the trace's TraceFacts, by index.
	Facts []any
	// legacySSE is set once a 2024-11-05 server named its endpoint on an
	// SSE connection (http_legacy_endpoint.go).
	legacySSE bool

	Notes     []string
	events    int
	messages  int
	transport trace.Transport
	ending    string
}

type checkResult struct {
	Examined [2]int
	Findings []Finding
}

func NewRun(traceName, rev, source string, opts Options) *run {
	r := &run{
		trace: traceName, revision: spec.Revision(rev), source: source, reg: spec.MustLoad(rev), Wire: newWireCheck(rev, traceName, opts), everyRule: opts.EveryRule,
		Results: map[string]*checkResult{}, sessions: map[string]*Session{}, byExchange: map[int64]*Session{},
		judgeEvent: (*run).Message,
	}
	if opts.AfterTurn != nil {
		r.judgeEvent, r.afterTurn = (*run).messageWatched, opts.AfterTurn
	}
	return r
}

// result returns the result check reports into. Rules ask for every
// subject they judge; the cache answers nearly always, inlined.
func (r *run) result(check string) *checkResult {
	if res := r.recent.first(check); res != nil {
		return res
	}
	return r.laterResult(check)
}

// laterResult is result for a check that is not the first of its cache
// set.
func (r *run) laterResult(check string) *checkResult {
	if res := r.recent.second(check); res != nil {
		return res
	}
	res := r.Results[check]
	if res == nil {
		res = &checkResult{}
		r.Results[check] = res
	}
	r.recent.Put(check, res)
	return res
}

// feed judges one event.
func (r *run) feed(ev *trace.Event) {
	r.events++
	if r.transport == "" {
		r.transport = ev.Transport
	}
	s := r.session(ev)
	s.Current = ev
	if s.Transport == "" {
		s.Transport = ev.Transport
	}
	if ev.Transport == trace.StreamableHTTP && taken(s, ev) {
		return
	}
	kind := ev.Kind
	if kind == trace.KindMessage && r.legacyTransportFrame(ev) {
		kind = trace.KindHTTP // a transport frame, not a message
	}
	switch kind {
	case trace.KindMessage:
		r.judgeEvent(r, s, ev)
	case trace.KindHTTP:
		r.statuses.Note(ev)
		for _, rule := range s.rules {
			rule.HTTP(s, ev)
		}
	case trace.KindLifecycle:
		r.Lifecycle(s, ev)
	}
}

// Message judges the messages of one event.
func (r *run) Message(s *Session, ev *trace.Event) {
	for _, m := range r.parse(ev) {
		r.turn(s, m)
	}
}

// messageWatched is message that hands every message to r.afterTurn once
// its turn is over.
func (r *run) messageWatched(s *Session, ev *trace.Event) {
	for _, m := range r.parse(ev) {
		r.turn(s, m)
		r.afterTurn(&r.store, m)
	}
}

// parse reads the messages of an event into Msgs of r.store, reusing
// those of the event before.
func (r *run) parse(ev *trace.Event) []*message.Msg {
	r.store.Reuse()
	r.msgs = message.ParseMessagesKeyed(r.msgs[:0], ev, &r.IDs, &r.store)
	return r.msgs
}

// turn is one message's turn: the rules judge it, the wire schema checks
// it, and the session moves past it.
func (r *run) turn(s *Session, m *message.Msg) {
	r.messages++
	m.HTTPErrorBody = r.httpErrorBody(m)
	s.Annotate(m)
	for _, rule := range s.dispatch.judging(s, m) {
		rule.Message(s, m)
	}
	r.Wire.Message(r, m)
	s.Advance(m)
}

func (r *run) Lifecycle(s *Session, ev *trace.Event) {
	for _, rule := range s.rules {
		rule.Lifecycle(s, ev)
	}
	if ev.Transport == trace.StreamableHTTP && ev.Exchange != 0 && ev.Stream != "" {
		return // one HTTP response stream ended, not the session
	}
	switch ev.Event {
	case trace.TransportClose, trace.TransportAbort:
		s.Phase = PhaseClosed
		r.ending = string(ev.Event)
	case trace.TransportOpen:
		r.ending = ""
	}
}

// session finds the session an event belongs to. Events of the exchange
// that created an HTTP session carry no session id on the request side (it
// was not known yet), so a session first met unnamed is renamed when its
// exchange's response names it.
func (r *run) session(ev *trace.Event) *Session {
	key := ev.Session
	// Each session is kept under its Key, so the session of the event
	// before, which nearly every event shares, needs no lookup.
	if s := r.lastSession; s != nil && s.Key == key {
		r.noteExchange(ev, s)
		return s
	}
	if s, ok := r.sessions[key]; ok {
		r.noteExchange(ev, s)
		r.lastSession = s
		return s
	}
	if prev := r.byExchange[ev.Exchange]; key != "" && ev.Exchange != 0 && prev != nil && prev.Key == "" {
		delete(r.sessions, "")
		prev.Key = key
		r.sessions[key] = prev
		return prev
	}
	s := NewSession(key, r)
	r.sessions[key] = s
	r.order = append(r.order, s)
	s.rules = newRules()
	r.noteExchange(ev, s)
	return s
}

func (r *run) noteExchange(ev *trace.Event, s *Session) {
	if ev.Exchange == 0 {
		return
	}
	if len(r.byExchange) >= maxExchanges {
		r.byExchange = map[int64]*Session{}
	}
	r.byExchange[ev.Exchange] = s
}

// finish ends every session and assembles the run's report.
func (r *run) finish(opts Options) Run {
	for _, s := range r.order {
		for _, rule := range s.rules {
			rule.End(s)
		}
	}
	out := Run{
		Trace: r.trace, Revision: string(r.revision), RevisionSource: r.source, Transport: string(r.transport),
		Events: r.events, Messages: r.messages, Sessions: len(r.order), Ending: r.endingWord(),
		Unanswered: r.unanswered(), Notes: r.Notes, Wire: r.Wire.finish(),
	}
	out.Clauses, out.Totals, out.Extensions = r.outcomes(opts)
	return out
}

func (r *run) endingWord() string {
	if r.ending == "" {
		return "stopped"
	}
	return r.ending
}

func (r *run) unanswered() []Unanswered {
	var out []Unanswered
	var pending []*message.Request
	for _, s := range r.order {
		s.PendingRequests(func(q *message.Request) { pending = append(pending, q) })
	}
	// Pending requests come out of a map: sorted by the order they were
	// sent in, the list is the same from run to run.
	slices.SortFunc(pending, (*message.Request).CompareSent)
	for _, q := range pending {
		out = append(out, Unanswered{Party: q.From, Method: q.Method, ID: DisplayID(q.IDKey), Line: q.Line, Seq: q.Seq})
	}
	return out
}

func DisplayID(key string) string {
	if len(key) > 2 && key[:2] == "s:" {
		return `"` + key[2:] + `"`
	}
	if len(key) > 2 {
		return key[2:]
	}
	return key
}

// negotiated reports whether any session declared the capability a clause
// is gated on ("server.tools", "client.sampling", ...).
func (r *run) negotiated(gate string) bool {
	party, path, _ := cut(gate)
	for _, s := range r.order {
		caps := s.ClientCaps
		if party == "server" {
			caps = s.ServerCaps
		}
		if caps.Has(path) {
			return true
		}
	}
	return false
}

func cut(gate string) (party, path string, ok bool) {
	for i := 0; i < len(gate); i++ {
		if gate[i] == '.' {
			return gate[:i], gate[i+1:], true
		}
	}
	return gate, "", false
}

func (r *run) httpErrorBody(m *message.Msg) bool {
	if m.Kind != message.KindInvalid || m.Event.Payload != nil || m.From != spec.Server {
		return false
	}
	status, ok := r.statuses.Of(m.Event)
	return ok && status >= 400
}
