package judge

import (
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/spec"
)

func init() {
	register(RuleSpec{
		Sees:   capabilitySights(),
		Checks: []Check{{"capability.negotiated-only", "no party uses a method or sends a notification whose capability was not negotiated"}},
		New:    func() Rule { return capabilityRule{} },
	})
}

type capabilityRule struct{ BaseRule }

func (capabilityRule) Message(s *Session, m *Msg) {
	gate := ""
	switch m.Kind {
	case KindRequest:
		gate = requestGates[m.Method]
	case KindNotification:
		gate = notificationGates[m.Method]
	}
	if gate == "" || !capabilitiesKnown(s, gate) {
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

var _ = spec.Both
