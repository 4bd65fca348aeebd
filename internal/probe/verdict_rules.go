package probe

import (
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
)

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
func decide(test string, declared definition.Hint, readOnly definition.Hint, p property) (definition.Outcome, definition.Reason) {
	switch declared.Value {
	case definition.HintMalformed:
		return definition.NotApplicable, definition.MalformedHint
	case definition.HintAbsent:
		return definition.NotApplicable, definition.NoDeclaration
	}
	if declared.Value == definition.ClaimValue[definition.TestHint[test]] {
		switch p.state {
		case fails:
			return definition.Violation, p.reason
		case unknown:
			return definition.Inconclusive, p.reason
		}
		return definition.Pass, definition.ClaimHeld
	}
	if test != definition.TestReadOnly && test != definition.TestOpenWorld && readOnly.Value == definition.HintTrue {
		// The specification gives destructiveHint and idempotentHint
		// meaning only when readOnlyHint is false.
		return definition.NotApplicable, definition.ReadOnlyDeclared
	}
	if p.state == holds && test != definition.TestConcurrentIdempotence {
		return definition.OverDeclared, definition.StrongerPropertyHeld
	}
	return definition.NotApplicable, definition.PermissiveDeclaration
}
