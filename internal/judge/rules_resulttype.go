package judge

import "encoding/json"

// resultType (2026-07-28): every result says what kind of result it is, with
// a value from the core set or from an extension both sides advertised.
func init() {
	register(RuleSpec{
		Sees: []sight{{kinds: resultMsgs}},
		Checks: []Check{
			{ID: "resulttype.present", Summary: "every result carries a resultType member"},
			{"resulttype.known-value", `a resultType is "complete", "input_required", or a value of an extension advertised via capabilities`},
		},
		New:      func() Rule { return resultTypeRule{} },
		Messages: statelessOnly,
	})
}

type resultTypeRule struct{ BaseRule }

func (resultTypeRule) Message(s *Session, m *Msg) {
	if !s.Stateless() || m.Kind != KindResult {
		return
	}
	var res struct {
		ResultType json.RawMessage `json:"resultType"`
	}
	if !Decode(m.Result, &res) {
		return // not an object: jsonrpc.result-object judges it
	}
	if res.ResultType == nil {
		s.Fail("resulttype.present", m.From, m.Event, "the result for %s has no resultType", requestName(m))
		return
	}
	s.Pass("resulttype.present", m.From)
	var value string
	_ = json.Unmarshal(res.ResultType, &value)
	checkResultTypeValue(s, m, value, string(res.ResultType))
}

func checkResultTypeValue(s *Session, m *Msg, value, raw string) {
	switch {
	case coreResultTypes[value]:
		s.Pass("resulttype.known-value", m.From)
	case !advertisesExtensions(requestCaps(m.Request)) && !advertisesExtensions(s.ServerCaps):
		s.Fail("resulttype.known-value", m.From, m.Event,
			`the result for %s has resultType %s, which is neither "complete" nor "input_required", and no extension was advertised via capabilities`, requestName(m), raw)
	}
}
