package logging

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Logging: notifications/message only from a server that declared logging,
// at or above the level the client asked for, without credentials; an
// unknown level refused with -32602.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.RequestMsgs, spec.Client, "logging/setLevel"), engine.Sees(engine.NotificationMsgs, spec.Server, "notifications/message"), engine.Sees(engine.ResponseMsgs, spec.Server, "logging/setLevel"), {Kinds: engine.RequestMsgs, From: spec.Client, Sessions: engine.StatelessOnly}, {Kinds: engine.ResponseMsgs, From: spec.Server, Sessions: engine.StatelessOnly}},
		Checks: []engine.Check{
			{ID: "logging.capability-declared", Summary: "a server that sends notifications/message declared the logging capability"},
			{ID: "logging.respects-level", Summary: "no notifications/message is below the level the client set (logging/setLevel in 2025-11-25, the request's logLevel in 2026-07-28)"},
			{ID: "logging.invalid-level-rejected", Summary: "a level that is not one of the eight syslog levels is refused with -32602 (Invalid params)"},
			{ID: "logging.no-credentials", Summary: "no notifications/message carries a recognisable credential (private key, cloud or platform access token, bearer token)"},
			{ID: "logging.only-when-requested", Summary: "2026-07-28: notifications/message only for a request in flight that carries io.modelcontextprotocol/logLevel"},
			{ID: "logging.request-scoped", Summary: "2026-07-28: notifications/message never on a subscriptions/listen stream or a stream other than its request's"},
		},
		New: func() engine.Rule { return newLoggingRule() },
	})
}

// logLevels ranks the syslog severities, least severe first.
var logLevels = map[string]int{
	"debug": 0, "info": 1, "notice": 2, "warning": 3, "error": 4, "critical": 5, "alert": 6, "emergency": 7,
}

func knownLevel(level string) bool {
	_, known := logLevels[level]
	return known
}

type loggingRule struct {
	engine.BaseRule
	// minimum is the level the last successful logging/setLevel set
	// (2025-11-25), "" before any.
	minimum string
	// invalid holds the pending keys of requests that carried an unknown
	// level, until they are answered.
	invalid map[string]string
	// scoped tracks the 2026-07-28 requests in flight and their streams.
	scoped *logScopes
	// clean is the last notifications/message params found to carry no
	// credential.
	clean engine.SameText
}

func newLoggingRule() *loggingRule {
	return &loggingRule{invalid: map[string]string{}, scoped: newLogScopes()}
}

func (r *loggingRule) Message(s *engine.Session, m *message.Msg) {
	switch {
	case m.Kind == message.KindRequest && m.From == spec.Client:
		r.request(s, m)
	case m.Kind == message.KindNotification && m.Method == "notifications/message" && m.From == spec.Server:
		r.notification(s, m)
	case m.Request != nil && !m.Answered && m.From == spec.Server:
		r.response(s, m)
	}
}

func (r *loggingRule) request(s *engine.Session, m *message.Msg) {
	level, has := requestedLevel(s, m)
	if s.Stateless() {
		r.scoped.Open(m, level, has)
	}
	if has && !knownLevel(level) && judgesUnknownLevel(s) {
		r.invalid[engine.PendingKey(m.From, m.IDKey)] = level
	}
}

// requestedLevel is the level a request sets: logging/setLevel's params in
// 2025-11-25, the _meta logLevel of any request in 2026-07-28.
func requestedLevel(s *engine.Session, m *message.Msg) (string, bool) {
	var raw json.RawMessage
	switch {
	case s.Stateless():
		raw = m.ParamsMeta().Get("io.modelcontextprotocol/logLevel")
	case m.Method == "logging/setLevel":
		raw = m.ParamsField("level")
	}
	if level, ok := rawjson.Unquote(raw); ok {
		return level, true
	}
	if raw == nil {
		return "", false
	}
	return decodedLevel(raw), true
}

// decodedLevel reads a level that is not a plain string the way
// encoding/json does, or keeps its text when it is not a string at all. It
// is a function of its own so that the variable json.Unmarshal fills is
// only allocated for such a level, not on every request.
func decodedLevel(raw json.RawMessage) string {
	var level string
	if json.Unmarshal(raw, &level) != nil {
		return string(raw)
	}
	return level
}

// judgesUnknownLevel: a 2025-11-25 server without the logging capability
// rightly refuses logging/setLevel as an unknown method instead.
func judgesUnknownLevel(s *engine.Session) bool {
	return s.Stateless() || s.ServerCaps.Has("logging")
}

func (r *loggingRule) response(s *engine.Session, m *message.Msg) {
	if s.Stateless() {
		r.scoped.close(m)
	}
	if level, ok := engine.TakePending(r.invalid, m.Request); ok {
		code, isCode := message.RPCErrorCode(m)
		s.Expect("logging.invalid-level-rejected", isCode && code == -32602, spec.Server, m.Event,
			"the server answered %q with log level %q by %s, not an error with code -32602 (Invalid params)", m.Request.Method, level, engine.DescribeAnswer(m))
		return
	}
	if !s.Stateless() && m.Request.Method == "logging/setLevel" && m.Kind == message.KindResult {
		r.minimum, _ = message.StringField(m.Request.Params, "level")
	}
}
