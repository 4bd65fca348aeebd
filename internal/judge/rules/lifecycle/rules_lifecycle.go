package lifecycle

import (
	"regexp"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// The initialize handshake of handshake revisions (2025-11-25 and before).
func init() {
	engine.Register(engine.RuleSpec{
		Checks: []engine.Check{
			{ID: "lifecycle.initialize-first", Summary: "the client's first message is the initialize request"},
			{ID: "lifecycle.initialize-result", Summary: "the server answers initialize with its protocolVersion, capabilities and serverInfo"},
			{ID: "lifecycle.initialized-sent", Summary: "after a successful initialize the client sends notifications/initialized"},
			{ID: "lifecycle.client-waits", Summary: "the client sends no request but ping before the initialize result"},
			{ID: "lifecycle.server-waits", Summary: "the server sends no request but ping before notifications/initialized"},
			{ID: "lifecycle.client-version", Summary: "the initialize request carries a protocolVersion"},
			{ID: "lifecycle.server-version", Summary: "the initialize result's protocolVersion is a revision identifier"},
		},
		New:      func() engine.Rule { return &lifecycleRule{} },
		Messages: engine.HandshakeOnly,
	})
}

type lifecycleRule struct {
	engine.BaseRule
	sawClientMessage bool
	afterResult      bool // the client sent something after the initialize result
	clientEarly      bool // the client sent a non-ping request before the result
	serverEarly      bool // the server sent a non-ping request before initialized
}

var revisionPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func (r *lifecycleRule) Message(s *engine.Session, m *message.Msg) {
	if s.Stateless() {
		return
	}
	if m.From == spec.Client {
		r.clientMessage(s, m)
	} else {
		r.serverMessage(s, m)
	}
}

func (r *lifecycleRule) clientMessage(s *engine.Session, m *message.Msg) {
	if !r.sawClientMessage {
		r.sawClientMessage = true
		s.Expect("lifecycle.initialize-first", m.Kind == message.KindRequest && m.Method == "initialize", spec.Client, m.Event,
			"the client's first message is %s %s, not the initialize request", m.Kind, engine.Describe(m))
	}
	if s.Phase >= engine.PhaseInitialized {
		r.afterResult = true
	}
	if m.Kind == message.KindRequest && m.Method == "initialize" {
		var p struct {
			ProtocolVersion *string `json:"protocolVersion"`
		}
		s.Expect("lifecycle.client-version", message.Decode(m.Params, &p) && p.ProtocolVersion != nil, spec.Client, m.Event,
			"the initialize request has no protocolVersion string")
		return
	}
	if m.Kind == message.KindRequest && s.Phase < engine.PhaseInitialized && m.Method != "ping" {
		r.clientEarly = true
		s.Fail("lifecycle.client-waits", spec.Client, m.Event, "the client sent %q before the server answered initialize", m.Method)
	}
	if m.Kind == message.KindNotification && m.Method == "notifications/initialized" && s.Phase < engine.PhaseOperating && !r.serverEarly {
		s.Pass("lifecycle.server-waits", spec.Server) // the window closed with no early request
	}
}

func (r *lifecycleRule) serverMessage(s *engine.Session, m *message.Msg) {
	if m.Kind == message.KindRequest && s.Phase < engine.PhaseOperating && m.Method != "ping" {
		r.serverEarly = true
		s.Fail("lifecycle.server-waits", spec.Server, m.Event, "the server sent request %q before notifications/initialized", m.Method)
	}
	if m.Kind == message.KindResult && m.Request != nil && m.Request.Method == "initialize" {
		checkInitializeResult(s, m)
		if !r.clientEarly {
			s.Pass("lifecycle.client-waits", spec.Client) // the window closed with no early request
		}
	}
}

func checkInitializeResult(s *engine.Session, m *message.Msg) {
	var res struct {
		ProtocolVersion *string         `json:"protocolVersion"`
		Capabilities    map[string]any  `json:"capabilities"`
		ServerInfo      *map[string]any `json:"serverInfo"`
	}
	ok := message.Decode(m.Result, &res) && res.ProtocolVersion != nil && res.Capabilities != nil && res.ServerInfo != nil
	s.Expect("lifecycle.initialize-result", ok, spec.Server, m.Event,
		"the initialize result lacks protocolVersion, capabilities or serverInfo")
	if res.ProtocolVersion != nil {
		s.Expect("lifecycle.server-version", revisionPattern.MatchString(*res.ProtocolVersion), spec.Server, m.Event,
			"the initialize result's protocolVersion %q is not a revision identifier (YYYY-MM-DD)", *res.ProtocolVersion)
	}
}

func (r *lifecycleRule) End(s *engine.Session) {
	if s.Stateless() || s.InitResult == nil || !r.afterResult {
		return
	}
	s.Expect("lifecycle.initialized-sent", s.InitializedSent, spec.Client, s.InitResult.Event,
		"the client went on after the initialize result without sending notifications/initialized")
}
