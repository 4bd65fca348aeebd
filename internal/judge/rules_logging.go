package judge

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Logging: notifications/message only from a server that declared logging,
// at or above the level the client asked for, without credentials; an
// unknown level refused with -32602.
func init() {
	register(RuleSpec{
		Sees: []sight{sees(requestMsgs, spec.Client, "logging/setLevel"), sees(notificationMsgs, spec.Server, "notifications/message"), sees(responseMsgs, spec.Server, "logging/setLevel"), {kinds: requestMsgs, from: spec.Client, sessions: statelessOnly}, {kinds: responseMsgs, from: spec.Server, sessions: statelessOnly}},
		Checks: []Check{
			{ID: "logging.capability-declared", Summary: "a server that sends notifications/message declared the logging capability"},
			{ID: "logging.respects-level", Summary: "no notifications/message is below the level the client set (logging/setLevel in 2025-11-25, the request's logLevel in 2026-07-28)"},
			{ID: "logging.invalid-level-rejected", Summary: "a level that is not one of the eight syslog levels is refused with -32602 (Invalid params)"},
			{ID: "logging.no-credentials", Summary: "no notifications/message carries a recognisable credential (private key, cloud or platform access token, bearer token)"},
			{ID: "logging.only-when-requested", Summary: "2026-07-28: notifications/message only for a request in flight that carries io.modelcontextprotocol/logLevel"},
			{ID: "logging.request-scoped", Summary: "2026-07-28: notifications/message never on a subscriptions/listen stream or a stream other than its request's"},
		},
		New: func() Rule { return newLoggingRule() },
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
	BaseRule
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
	clean sameText
}

func newLoggingRule() *loggingRule {
	return &loggingRule{invalid: map[string]string{}, scoped: newLogScopes()}
}

func (r *loggingRule) Message(s *Session, m *Msg) {
	switch {
	case m.Kind == KindRequest && m.From == spec.Client:
		r.request(s, m)
	case m.Kind == KindNotification && m.Method == "notifications/message" && m.From == spec.Server:
		r.notification(s, m)
	case m.Request != nil && !m.Answered && m.From == spec.Server:
		r.response(s, m)
	}
}

func (r *loggingRule) request(s *Session, m *Msg) {
	level, has := requestedLevel(s, m)
	if s.Stateless() {
		r.scoped.open(m, level, has)
	}
	if has && !knownLevel(level) && judgesUnknownLevel(s) {
		r.invalid[pendingKey(m.From, m.IDKey)] = level
	}
}

// requestedLevel is the level a request sets: logging/setLevel's params in
// 2025-11-25, the _meta logLevel of any request in 2026-07-28.
func requestedLevel(s *Session, m *Msg) (string, bool) {
	var raw json.RawMessage
	switch {
	case s.Stateless():
		raw = m.ParamsMeta().get("io.modelcontextprotocol/logLevel")
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
func judgesUnknownLevel(s *Session) bool {
	return s.Stateless() || s.ServerCaps.Has("logging")
}

func (r *loggingRule) response(s *Session, m *Msg) {
	if s.Stateless() {
		r.scoped.close(m)
	}
	if level, ok := takePending(r.invalid, m.Request); ok {
		code, isCode := rpcErrorCode(m)
		s.Expect("logging.invalid-level-rejected", isCode && code == -32602, spec.Server, m.Event,
			"the server answered %q with log level %q by %s, not an error with code -32602 (Invalid params)", m.Request.Method, level, describeAnswer(m))
		return
	}
	if !s.Stateless() && m.Request.Method == "logging/setLevel" && m.Kind == KindResult {
		r.minimum, _ = stringField(m.Request.Params, "level")
	}
}
