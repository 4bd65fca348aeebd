// Package judge reads recorded MCP sessions and decides, clause by clause,
// which normative requirements of the negotiated specification revision each
// party met, broke, or never exercised. It is a pure function from events to
// a report: no I/O, no clock, the same report for the same events.
//
// The work is split by what a maintainer changes: the engine (internal/judge/engine)
// runs sessions and dispatches messages, the message view (internal/judge/message)
// reads one JSON-RPC message, and the rules live in one folder per registry area
// under internal/judge/rules. This package puts them together: importing it
// registers every rule.
package judge

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"

	// Each rule folder registers its checks with the engine at init.
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/auth"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/base"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/caching"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/cancellation"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/completion"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/discover"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/elicitation"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/lifecycle"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/logging"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/mrtr"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/pagination"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/ping"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/progress"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/prompts"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/resources"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/roots"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/sampling"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/subscriptions"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/tasks"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/tools"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/transports"
	_ "github.com/mcpverdict/mcpverdict/internal/judge/rules/versioning"
)

// The report model and the options, as the engine defines them.
type (
	ClauseResult = engine.ClauseResult
	// ExtensionResult and ExtensionVerdict report an extension beside the verdict.
	ExtensionResult  = engine.ExtensionResult
	ExtensionVerdict = engine.ExtensionVerdict
	Finding          = engine.Finding
	Input            = engine.Input
	Options          = engine.Options
	Outcome          = engine.Outcome
	Report           = engine.Report
	Run              = engine.Run
	Totals           = engine.Totals
	Unanswered       = engine.Unanswered
	Verdict          = engine.Verdict
	WireFinding      = engine.WireFinding
	WireResult       = engine.WireResult
)

// The outcomes, verdicts, revision sources and notes reports name.
const (
	Excluded                = engine.Excluded
	Fail                    = engine.Fail
	NoMessages              = engine.NoMessages
	NotApplicable           = engine.NotApplicable
	NotObserved             = engine.NotObserved
	Pass                    = engine.Pass
	SourceDefault           = engine.SourceDefault
	SourceFlag              = engine.SourceFlag
	SourceHeader            = engine.SourceHeader
	SourceMeta              = engine.SourceMeta
	SourceNegotiated        = engine.SourceNegotiated
	SourceProposed          = engine.SourceProposed
	SourceRequested         = engine.SourceRequested
	VerdictFail             = engine.VerdictFail
	VerdictIncomplete       = engine.VerdictIncomplete
	VerdictNotObserved      = engine.VerdictNotObserved
	VerdictPass             = engine.VerdictPass
	VerdictPassWithWarnings = engine.VerdictPassWithWarnings
	Warn                    = engine.Warn
)

// Judge is engine.Judge, with every rule folder registered.
func Judge(inputs []Input, opts Options) *Report { return engine.Judge(inputs, opts) }

// MergeExtensions is engine.MergeExtensions: two reports' extension
// verdicts summed by name.
func MergeExtensions(a, b []ExtensionVerdict) []ExtensionVerdict { return engine.MergeExtensions(a, b) }
