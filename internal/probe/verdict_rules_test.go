package probe

import "testing"

func TestDecide(t *testing.T) {
	h := func(v HintValue) Hint { return Hint{Value: v} }
	absent := h(HintAbsent)
	cases := []struct {
		test     string
		declared Hint
		readOnly Hint
		p        property
		verdict  Outcome
		reason   Reason
	}{
		{TestReadOnly, h(HintTrue), absent, held(""), Pass, ClaimHeld},
		{TestReadOnly, h(HintTrue), absent, failed(BusinessChange, ""), Violation, BusinessChange},
		{TestReadOnly, h(HintTrue), absent, undecided(CallError, ""), Inconclusive, CallError},
		{TestReadOnly, h(HintFalse), absent, held(""), OverDeclared, StrongerPropertyHeld},
		{TestReadOnly, h(HintFalse), absent, failed(BusinessChange, ""), NotApplicable, PermissiveDeclaration},
		{TestReadOnly, absent, absent, failed(BusinessChange, ""), NotApplicable, NoDeclaration},
		{TestReadOnly, Hint{Value: HintMalformed, Raw: `"true"`}, absent, held(""), NotApplicable, MalformedHint},
		{TestDestructive, h(HintFalse), absent, failed(RecordRemoved, ""), Violation, RecordRemoved},
		{TestDestructive, h(HintTrue), absent, held(""), OverDeclared, StrongerPropertyHeld},
		{TestDestructive, h(HintTrue), h(HintTrue), held(""), NotApplicable, ReadOnlyDeclared},
		{TestSequentialIdempotence, h(HintFalse), absent, held(""), OverDeclared, StrongerPropertyHeld},
		{TestConcurrentIdempotence, h(HintFalse), absent, held(""), NotApplicable, PermissiveDeclaration},
		{TestConcurrentIdempotence, h(HintTrue), absent, undecided(NoOverlap, ""), Inconclusive, NoOverlap},
		{TestOpenWorld, h(HintFalse), h(HintTrue), failed(NetworkAttempt, ""), Violation, NetworkAttempt},
		{TestOpenWorld, h(HintTrue), absent, held(""), OverDeclared, StrongerPropertyHeld},
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
	p := combine(ids, []property{held("x"), undecided(CallError, "y"), failed(RecordOverwritten, "z")})
	if p.state != fails || p.reason != RecordOverwritten || p.detail != "t[c]: z" {
		t.Errorf("got %+v", p)
	}
	p = combine(ids, []property{held("x"), undecided(CallError, "y"), held("z")})
	if p.state != unknown || p.reason != CallError {
		t.Errorf("got %+v", p)
	}
	if p := combine(ids[:2], []property{held("x"), held("x")}); p.state != holds {
		t.Errorf("got %+v", p)
	}
}
