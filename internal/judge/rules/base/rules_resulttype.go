package base

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// resultType (2026-07-28): every result says what kind of result it is, with
// a value from the core set or from an extension both sides advertised.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{{Kinds: engine.ResultMsgs}},
		Checks: []engine.Check{
			{ID: "resulttype.present", Summary: "every result carries a resultType member"},
			{ID: "resulttype.known-value", Summary: `a resultType is "complete", "input_required", or a value of an extension advertised via capabilities`},
		},
		New:      func() engine.Rule { return resultTypeRule{} },
		Messages: engine.StatelessOnly,
	})
}

type resultTypeRule struct{ engine.BaseRule }

func (resultTypeRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() || m.Kind != message.KindResult {
		return
	}
	var res struct {
		ResultType json.RawMessage `json:"resultType"`
	}
	if !message.Decode(m.Result, &res) {
		return // not an object: jsonrpc.result-object judges it
	}
	if res.ResultType == nil {
		s.Fail("resulttype.present", m.From, m.Event, "the result for %s has no resultType", engine.RequestName(m))
		return
	}
	s.Pass("resulttype.present", m.From)
	var value string
	_ = json.Unmarshal(res.ResultType, &value)
	checkResultTypeValue(s, m, value, string(res.ResultType))
}

func checkResultTypeValue(s *engine.Session, m *message.Msg, value, raw string) {
	switch {
	case engine.CoreResultTypes[value]:
		s.Pass("resulttype.known-value", m.From)
	case !engine.AdvertisesExtensions(engine.RequestCaps(m.Request)) && !engine.AdvertisesExtensions(s.ServerCaps):
		s.Fail("resulttype.known-value", m.From, m.Event,
			`the result for %s has resultType %s, which is neither "complete" nor "input_required", and no extension was advertised via capabilities`, engine.RequestName(m), raw)
	}
}
