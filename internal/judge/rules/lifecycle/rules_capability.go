package lifecycle

import (
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

func init() {
	engine.Register(engine.RuleSpec{
		Sees:   engine.CapabilitySights(),
		Checks: []engine.Check{{ID: "capability.negotiated-only", Summary: "no party uses a method or sends a notification whose capability was not negotiated"}},
		New:    func() engine.Rule { return capabilityRule{} },
	})
}

type capabilityRule struct{ engine.BaseRule }

func (capabilityRule) Message(s *engine.Session, m *message.Msg) {
	gate := ""
	switch m.Kind {
	case message.KindRequest:
		gate = engine.RequestGates[m.Method]
	case message.KindNotification:
		gate = engine.NotificationGates[m.Method]
	}
	if gate == "" || !engine.CapabilitiesKnown(s, gate) {
		return
	}
	owner, path, _ := strings.Cut(gate, ".")
	caps := s.ClientCaps
	if owner == "server" {
		caps = s.ServerCaps
	}
	if !caps.Has(path) {
		s.Fail("capability.negotiated-only", m.From, m.Event, "%s %q needs capability %s, which the %s did not declare", m.Kind, m.Method, gate, owner)
	} else {
		s.Pass("capability.negotiated-only", m.From)
	}
}
