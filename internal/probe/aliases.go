package probe

import (
	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
	"github.com/mcpverdict/mcpverdict/internal/probe/sandbox"
)

// The definition's types, as package definition defines them.
type (
	Contract   = definition.Contract
	DefError   = definition.DefError
	Definition = definition.Definition
	Hint       = definition.Hint
	HintValue  = definition.HintValue
	Outcome    = definition.Outcome
	Reason     = definition.Reason
)

// The tests, hints and outcomes, as package definition names them.
const (
	BusinessChange            = definition.BusinessChange
	CallError                 = definition.CallError
	ClaimHeld                 = definition.ClaimHeld
	ConcurrentDiverged        = definition.ConcurrentDiverged
	DestructiveHint           = definition.DestructiveHint
	HintAbsent                = definition.HintAbsent
	HintFalse                 = definition.HintFalse
	HintMalformed             = definition.HintMalformed
	HintTrue                  = definition.HintTrue
	IdempotentHint            = definition.IdempotentHint
	Inconclusive              = definition.Inconclusive
	MalformedHint             = definition.MalformedHint
	ModeSingleConnection      = definition.ModeSingleConnection
	ModeTwoProcess            = definition.ModeTwoProcess
	NoDeclaration             = definition.NoDeclaration
	NotApplicable             = definition.NotApplicable
	OpenWorldHint             = definition.OpenWorldHint
	OverDeclared              = definition.OverDeclared
	Pass                      = definition.Pass
	ReadOnlyHint              = definition.ReadOnlyHint
	ResetUnverified           = definition.ResetUnverified
	SandboxUnavailable        = definition.SandboxUnavailable
	StrongerPropertyHeld      = definition.StrongerPropertyHeld
	TestConcurrentIdempotence = definition.TestConcurrentIdempotence
	TestDestructive           = definition.TestDestructive
	TestOpenWorld             = definition.TestOpenWorld
	TestReadOnly              = definition.TestReadOnly
	TestSequentialIdempotence = definition.TestSequentialIdempotence
	Violation                 = definition.Violation
)

var (
	TestHint = definition.TestHint
	Tests    = definition.Tests
)

// Load is definition.Load.
func Load(path string) (*Definition, error) { return definition.Load(path) }

// SandboxCheck is sandbox.SandboxCheck.
func SandboxCheck(self string) error { return sandbox.SandboxCheck(self) }

// SandboxMain is sandbox.SandboxMain.
func SandboxMain(args []string) int { return sandbox.SandboxMain(args) }
