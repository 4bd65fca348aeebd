package probe

import (
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
)

func TestDecide(t *testing.T) {
	h := func(v definition.HintValue) definition.Hint { return definition.Hint{Value: v} }
	absent := h(definition.HintAbsent)
	cases := []struct {
		test     string
		declared definition.Hint
		readOnly definition.Hint
		p        property
		verdict  definition.Outcome
		reason   definition.Reason
	}{
		{definition.TestReadOnly, h(definition.HintTrue), absent, held(""), definition.Pass, definition.ClaimHeld},
		{definition.TestReadOnly, h(definition.HintTrue), absent, failed(definition.BusinessChange, ""), definition.Violation, definition.BusinessChange},
		{definition.TestReadOnly, h(definition.HintTrue), absent, undecided(definition.CallError, ""), definition.Inconclusive, definition.CallError},
		{definition.TestReadOnly, h(definition.HintFalse), absent, held(""), definition.OverDeclared, definition.StrongerPropertyHeld},
		{definition.TestReadOnly, h(definition.HintFalse), absent, failed(definition.BusinessChange, ""), definition.NotApplicable, definition.PermissiveDeclaration},
		{definition.TestReadOnly, absent, absent, failed(definition.BusinessChange, ""), definition.NotApplicable, definition.NoDeclaration},
		{definition.TestReadOnly, definition.Hint{Value: definition.HintMalformed, Raw: `"true"`}, absent, held(""), definition.NotApplicable, definition.MalformedHint},
		{definition.TestDestructive, h(definition.HintFalse), absent, failed(definition.RecordRemoved, ""), definition.Violation, definition.RecordRemoved},
		{definition.TestDestructive, h(definition.HintTrue), absent, held(""), definition.OverDeclared, definition.StrongerPropertyHeld},
		{definition.TestDestructive, h(definition.HintTrue), h(definition.HintTrue), held(""), definition.NotApplicable, definition.ReadOnlyDeclared},
		{definition.TestSequentialIdempotence, h(definition.HintFalse), absent, held(""), definition.OverDeclared, definition.StrongerPropertyHeld},
		{definition.TestConcurrentIdempotence, h(definition.HintFalse), absent, held(""), definition.NotApplicable, definition.PermissiveDeclaration},
		{definition.TestConcurrentIdempotence, h(definition.HintTrue), absent, undecided(definition.NoOverlap, ""), definition.Inconclusive, definition.NoOverlap},
		{definition.TestOpenWorld, h(definition.HintFalse), h(definition.HintTrue), failed(definition.NetworkAttempt, ""), definition.Violation, definition.NetworkAttempt},
		{definition.TestOpenWorld, h(definition.HintTrue), absent, held(""), definition.OverDeclared, definition.StrongerPropertyHeld},
	}
	for _, c := range cases {
		v, r := decide(c.test, c.declared, c.readOnly, c.p)
		if v != c.verdict || r != c.reason {
			t.Errorf("%s declared %s, %s: got %s:%s, want %s:%s", c.test, c.declared.Value, c.p.state, v, r, c.verdict, c.reason)
		}
	}
}

func TestCombineOneContradictionDecidesEveryVariant(t *testing.T) {
	ids := []string{"t[a]", "t[b]", "t[c]"}
	p := combine(ids, []property{held("x"), undecided(definition.CallError, "y"), failed(definition.RecordOverwritten, "z")})
	if p.state != fails || p.reason != definition.RecordOverwritten || p.detail != "t[c]: z" {
		t.Errorf("got %+v", p)
	}
	p = combine(ids, []property{held("x"), undecided(definition.CallError, "y"), held("z")})
	if p.state != unknown || p.reason != definition.CallError {
		t.Errorf("got %+v", p)
	}
	if p := combine(ids[:2], []property{held("x"), held("x")}); p.state != holds {
		t.Errorf("got %+v", p)
	}
}
