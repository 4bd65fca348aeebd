package definition

import (
	"fmt"
	"strings"
)

// The tests run for every tool, each judging one hint.
const (
	TestReadOnly              = "read_only"
	TestDestructive           = "destructive"
	TestSequentialIdempotence = "sequential_idempotence"
	TestConcurrentIdempotence = "concurrent_idempotence"
	TestOpenWorld             = "open_world"
)

// Tests lists the tests in report order.
var Tests = []string{TestReadOnly, TestDestructive, TestSequentialIdempotence, TestConcurrentIdempotence, TestOpenWorld}

// TestHint is the hint each test judges.
var TestHint = map[string]string{
	TestReadOnly:              ReadOnlyHint,
	TestDestructive:           DestructiveHint,
	TestSequentialIdempotence: IdempotentHint,
	TestConcurrentIdempotence: IdempotentHint,
	TestOpenWorld:             OpenWorldHint,
}

// ClaimValue is the declared value of each hint that behaviour can
// contradict; the other value is permissive.
var ClaimValue = map[string]HintValue{
	ReadOnlyHint:    HintTrue,
	DestructiveHint: HintFalse,
	IdempotentHint:  HintTrue,
	OpenWorldHint:   HintFalse,
}

// Outcome is the verdict of one test of one tool.
type Outcome string

// The outcomes.
const (
	// Pass: the claim was tested with complete coverage and held.
	Pass Outcome = "PASS"
	// Violation: behaviour contradicted the claim; one instance suffices.
	Violation Outcome = "VIOLATION"
	// OverDeclared: the declaration is weaker than the behaviour shown in
	// every run and variant (idempotentHint: false on a tool that was
	// idempotent every time).
	OverDeclared Outcome = "OVER_DECLARED"
	// NotApplicable: a permissive, absent or malformed declaration leaves
	// nothing to contradict.
	NotApplicable Outcome = "NOT_APPLICABLE"
	// Inconclusive: the evidence cannot decide (coverage, unstable runs,
	// call errors, no overlap, no network sandbox).
	Inconclusive Outcome = "INCONCLUSIVE"
	// ResetUnverified: two resets from the seed differed, so no observation
	// can be trusted.
	ResetUnverified Outcome = "RESET_UNVERIFIED"
)

var Verdicts = []Outcome{Pass, Violation, OverDeclared, NotApplicable, Inconclusive, ResetUnverified}

// Reason explains a verdict.
type Reason string

// The reasons a verdict can give, primary or secondary.
const (
	ClaimHeld              Reason = "CLAIM_HELD"
	StrongerPropertyHeld   Reason = "STRONGER_PROPERTY_HELD"
	PermissiveDeclaration  Reason = "PERMISSIVE_DECLARATION"
	NoDeclaration          Reason = "NO_DECLARATION"
	MalformedHint          Reason = "MALFORMED_HINT"
	ReadOnlyDeclared       Reason = "READ_ONLY_DECLARED"
	BusinessChange         Reason = "BUSINESS_CHANGE"
	UnclassifiedChange     Reason = "UNCLASSIFIED_CHANGE"
	AppendOnlyRewritten    Reason = "APPEND_ONLY_REWRITTEN"
	AppendOnlyChanged      Reason = "APPEND_ONLY_CHANGED"
	RecordRemoved          Reason = "RECORD_REMOVED"
	RecordOverwritten      Reason = "RECORD_OVERWRITTEN"
	TwiceDiffersFromOnce   Reason = "TWICE_DIFFERS_FROM_ONCE"
	ConcurrentDiverged     Reason = "CONCURRENT_DIVERGED"
	NetworkAttempt         Reason = "NETWORK_ATTEMPT"
	StartupNetwork         Reason = "STARTUP_NETWORK"
	StartupChanges         Reason = "STARTUP_CHANGES"
	IncompleteCoverage     Reason = "INCOMPLETE_COVERAGE"
	UnstableRuns           Reason = "UNSTABLE_RUNS"
	UnstableControl        Reason = "UNSTABLE_CONTROL"
	CallError              Reason = "CALL_ERROR"
	SessionFailed          Reason = "SESSION_FAILED"
	NoOverlap              Reason = "NO_OVERLAP"
	SandboxUnavailable     Reason = "SANDBOX_UNAVAILABLE"
	ResetDiffers           Reason = "RESET_DIFFERS"
	ConcurrentNotAttempted Reason = "CONCURRENT_NOT_ATTEMPTED"
)

// ParseExpectation splits "VERDICT" or "VERDICT:REASON".
func ParseExpectation(s string) (Outcome, Reason, error) {
	v, r, _ := strings.Cut(s, ":")
	for _, known := range Verdicts {
		if Outcome(v) == known {
			return known, Reason(r), nil
		}
	}
	return "", "", fmt.Errorf("%q is not a verdict: use one of PASS, VIOLATION, OVER_DECLARED, NOT_APPLICABLE, INCONCLUSIVE, RESET_UNVERIFIED, optionally followed by :PRIMARY_REASON", s)
}
