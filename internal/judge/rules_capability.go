package judge

import (
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Methods and notifications that need a capability of the party that
// receives (for requests) or sends (for notifications) them.
var (
	requestGates = map[string]string{
		"tools/list": "server.tools", "tools/call": "server.tools",
		"resources/list": "server.resources", "resources/read": "server.resources",
		"resources/templates/list": "server.resources",
		"resources/subscribe":      "server.resources.subscribe", "resources/unsubscribe": "server.resources.subscribe",
		"prompts/list": "server.prompts", "prompts/get": "server.prompts",
		"logging/setLevel":       "server.logging",
		"completion/complete":    "server.completions",
		"sampling/createMessage": "client.sampling",
		"elicitation/create":     "client.elicitation",
		"roots/list":             "client.roots",
	}
	notificationGates = map[string]string{
		"notifications/tools/list_changed":     "server.tools.listChanged",
		"notifications/prompts/list_changed":   "server.prompts.listChanged",
		"notifications/resources/list_changed": "server.resources.listChanged",
		"notifications/resources/updated":      "server.resources.subscribe",
		"notifications/message":                "server.logging",
		"notifications/roots/list_changed":     "client.roots.listChanged",
	}
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

// capabilitiesKnown reports whether the session has told us the capabilities
// a gate reads: a handshake session once initialize completed, a stateless
// session once the server answered server/discover (client capabilities
// travel on each request).
func capabilitiesKnown(s *Session, gate string) bool {
	if strings.HasPrefix(gate, "client.") {
		return s.ClientCaps != nil || s.InitRequest != nil
	}
	return s.ServerCaps != nil || s.InitResult != nil
}

var _ = spec.Both
