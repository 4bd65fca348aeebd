package logging

import (
	"strconv"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

func (r *loggingRule) notification(s *engine.Session, m *message.Msg) {
	if engine.CapabilitiesKnown(s, "server.logging") {
		s.Expect("logging.capability-declared", s.ServerCaps.Has("logging"), spec.Server, m.Event,
			"the server sent notifications/message without declaring the logging capability")
	}
	r.judgeCredentials(s, m)
	// The level is read only when there is a level to hold it to: a
	// 2025-11-25 client that never set one leaves params unread here.
	if s.Stateless() {
		r.scoped.judge(s, m, messageLevel(m))
		return
	}
	if r.minimum != "" {
		checkLevel(s, m, messageLevel(m), r.minimum)
	}
}

// judgeCredentials is checkCredentials, but params the same to the byte as
// the last it found clean pass at once, without the search of them for
// each kind of credential: a server logs the same message again and again.
func (r *loggingRule) judgeCredentials(s *engine.Session, m *message.Msg) {
	if r.clean.Is(m.Params) {
		s.Pass("logging.no-credentials", spec.Server)
		return
	}
	if engine.CheckCredentials(s, m) {
		r.clean.Keep(m.Params, engine.MaxSameText)
	}
}

func messageLevel(m *message.Msg) string {
	level, _ := m.ParamsString("level")
	return level
}

// checkLevel holds a message's level to the minimum the client asked for;
// either being unknown leaves nothing to compare.
func checkLevel(s *engine.Session, m *message.Msg, level, minimum string) {
	got, ok1 := logLevels[level]
	want, ok2 := logLevels[minimum]
	if ok1 && ok2 {
		s.Expect("logging.respects-level", got >= want, spec.Server, m.Event,
			"notifications/message has level %q, below the %q the client asked for", level, minimum)
	}
}

// logScopes follows the 2026-07-28 client requests in flight: the level
// each asked for and the HTTP exchange that carries its response.
type logScopes struct {
	requests map[string]*logScope
	// exchanges maps an HTTP exchange to the pending key of its request;
	// closed remembers the exchanges whose request was answered.
	exchanges map[int64]string
	closed    *message.BoundedKeys
}

type logScope struct {
	level  string
	asked  bool
	listen bool
	id     string
}

func newLogScopes() *logScopes {
	return &logScopes{requests: map[string]*logScope{}, exchanges: map[int64]string{}, closed: message.NewBoundedKeys(256)}
}

func (l *logScopes) Open(m *message.Msg, level string, asked bool) {
	if m.IDKey == "" {
		return
	}
	key := engine.PendingKey(m.From, m.IDKey)
	l.requests[key] = &logScope{level: level, asked: asked, listen: m.Method == "subscriptions/listen", id: string(m.ID)}
	if ex := m.Event.Exchange; ex != 0 {
		l.exchanges[ex] = key
	}
}

func (l *logScopes) close(m *message.Msg) {
	key := engine.PendingKey(m.Request.From, m.Request.IDKey)
	delete(l.requests, key)
	if ex := m.Event.Exchange; ex != 0 && l.exchanges[ex] == key {
		delete(l.exchanges, ex)
		l.closed.Add(strconv.FormatInt(ex, 10))
	}
}

// judge places a notifications/message: over HTTP by the exchange it came
// on, over stdio among the requests in flight.
func (l *logScopes) judge(s *engine.Session, m *message.Msg, level string) {
	if m.Event.Exchange != 0 {
		l.judgeHTTP(s, m, level)
		return
	}
	tagged := m.ParamsMeta().Has("io.modelcontextprotocol/subscriptionId")
	s.Expect("logging.request-scoped", !tagged, spec.Server, m.Event,
		"notifications/message carries a subscriptionId: it was delivered on a subscriptions/listen stream")
	if tagged {
		return
	}
	minimum, asked := l.loosestLevel()
	s.Expect("logging.only-when-requested", asked, spec.Server, m.Event,
		"notifications/message while no request in flight carries io.modelcontextprotocol/logLevel")
	if asked {
		checkLevel(s, m, level, minimum)
	}
}

// loosestLevel is the lowest level asked for by any request in flight.
func (l *logScopes) loosestLevel() (string, bool) {
	best, found := "", false
	for _, sc := range l.requests {
		if sc.asked && (!found || logLevels[sc.level] < logLevels[best]) {
			best, found = sc.level, true
		}
	}
	return best, found
}

func (l *logScopes) judgeHTTP(s *engine.Session, m *message.Msg, level string) {
	ex := m.Event.Exchange
	sc := l.requests[l.exchanges[ex]]
	switch {
	case sc == nil && l.closed.Has(strconv.FormatInt(ex, 10)):
		s.Fail("logging.only-when-requested", spec.Server, m.Event, "notifications/message after the response to the request of its stream")
	case sc == nil:
		s.Fail("logging.request-scoped", spec.Server, m.Event, "notifications/message on a stream that carries no request's response")
	case sc.listen:
		s.Fail("logging.request-scoped", spec.Server, m.Event, "notifications/message on the stream of subscriptions/listen %s", sc.id)
	case !sc.asked:
		s.Pass("logging.request-scoped", spec.Server)
		s.Fail("logging.only-when-requested", spec.Server, m.Event,
			"notifications/message for request %s, which carries no io.modelcontextprotocol/logLevel", sc.id)
	default:
		s.Pass("logging.request-scoped", spec.Server)
		s.Pass("logging.only-when-requested", spec.Server)
		checkLevel(s, m, level, sc.level)
	}
}
