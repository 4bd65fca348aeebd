package probe

import "slices"

// combine merges the property each case showed into the tool's: one
// contradiction is conclusive; otherwise any undecided case leaves the
// tool undecided; only when every case held does the tool.
func combine(ids []string, props []property) property {
	label := func(i int, detail string) string {
		if len(props) == 1 {
			return detail
		}
		return ids[i] + ": " + detail
	}
	for i, p := range props {
		if p.state == fails {
			out := p
			out.detail = label(i, p.detail)
			out.modes = nil
			for _, q := range props {
				if q.state == fails {
					out.modes = union(out.modes, q.modes)
				}
			}
			return out
		}
	}
	for i, p := range props {
		if p.state == unknown {
			p.detail = label(i, p.detail)
			return p
		}
	}
	if len(props) == 1 {
		return props[0]
	}
	return held(props[0].detail + " (every variant)")
}

func union(a, b []string) []string {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

// decide turns a declaration and the observed property into the verdict
// and its primary reason.
func decide(test string, declared Hint, readOnly Hint, p property) (Outcome, Reason) {
	switch declared.Value {
	case HintMalformed:
		return NotApplicable, MalformedHint
	case HintAbsent:
		return NotApplicable, NoDeclaration
	}
	if declared.Value == claimValue[TestHint[test]] {
		switch p.state {
		case fails:
			return Violation, p.reason
		case unknown:
			return Inconclusive, p.reason
		}
		return Pass, ClaimHeld
	}
	if test != TestReadOnly && test != TestOpenWorld && readOnly.Value == HintTrue {
		// The specification gives destructiveHint and idempotentHint
		// meaning only when readOnlyHint is false.
		return NotApplicable, ReadOnlyDeclared
	}
	if p.state == holds && test != TestConcurrentIdempotence {
		return OverDeclared, StrongerPropertyHeld
	}
	return NotApplicable, PermissiveDeclaration
}
