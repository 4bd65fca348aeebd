package probe

import (
	"time"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
	"github.com/mcpverdict/mcpverdict/internal/probe/sandbox"
)

// ReportSchemaID names the JSON report format; the schema is published as
// probe-report.schema.json (mcpverdict probe schema prints it).
const ReportSchemaID = "https://mcpverdict.dev/schemas/probe-report/1"

// Report is the outcome of one probe run: every verdict with its evidence.
// It is the model every reporter renders and the ledger records.
type Report struct {
	Schema     string         `json:"$schema"`
	Definition DefinitionInfo `json:"definition"`
	Provenance Provenance     `json:"provenance"`
	Runs       int            `json:"runs"`
	// ConcurrentAttempts is the attempts per mode for each claim of
	// idempotence.
	ConcurrentAttempts int                   `json:"concurrent_attempts"`
	Started            time.Time             `json:"started"`
	DurationMS         int64                 `json:"duration_ms"`
	Reset              ResetCheck            `json:"reset"`
	Coverage           Coverage              `json:"coverage"`
	Sandbox            SandboxInfo           `json:"sandbox"`
	Control            ControlReport         `json:"control"`
	Contracts          []definition.Contract `json:"contracts"`
	Tools              []ToolReport          `json:"tools"`
	Nondeterminism     []Instability         `json:"nondeterminism"`
	Sessions           SessionsInfo          `json:"sessions"`
	// Protocol is the clause checks' judgement of the sessions' traces.
	Protocol *ProtocolReport `json:"protocol,omitempty"`
	Summary  map[string]int  `json:"summary"`
	// Expectations is set when the definition records expected verdicts
	// (a fixture).
	Expectations *ExpectationCheck `json:"expectations,omitempty"`
}

// DefinitionInfo identifies the definition probed.
type DefinitionInfo struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// ResetCheck is the outcome of seeding twice and comparing.
type ResetCheck struct {
	Verified    bool                `json:"verified"`
	Differences []definition.Change `json:"differences,omitempty"`
	Error       string              `json:"error,omitempty"`
}

// Coverage says whether the adapters observe every place the server keeps
// state.
type Coverage struct {
	Complete   bool     `json:"complete"`
	Unobserved []string `json:"unobserved,omitempty"`
}

// SandboxInfo says whether servers ran in the network sandbox.
type SandboxInfo struct {
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
}

// ControlReport is what start-up alone did: the control sessions' change
// from the seeded state, their stability across runs, and the connection
// attempts before any call.
type ControlReport struct {
	Stable          bool                                      `json:"stable"`
	StartupChanges  map[definition.Category]definition.Counts `json:"startup_changes"`
	Changes         []definition.Change                       `json:"changes,omitempty"`
	NetworkAttempts []sandbox.NetAttempt                      `json:"network_attempts,omitempty"`
	Errors          []string                                  `json:"errors,omitempty"`
	// TwoProcessStable is set when two-process controls ran.
	TwoProcessStable *bool `json:"two_process_stable,omitempty"`
}

// ToolReport is one tool: what it declared and each test's verdict.
type ToolReport struct {
	Tool     string              `json:"tool"`
	Contract definition.Contract `json:"contract"`
	Cases    []CaseReport        `json:"cases"`
	Tests    []TestResult        `json:"tests"`
}

// TestResult is one (tool, test) verdict.
type TestResult struct {
	Test      string              `json:"test"`
	Hint      string              `json:"hint"`
	Declared  definition.Hint     `json:"declared"`
	Verdict   definition.Outcome  `json:"verdict"`
	Primary   definition.Reason   `json:"primary_reason"`
	Secondary []definition.Reason `json:"secondary_reasons,omitempty"`
	// Observed is the property shown: holds, fails or unknown.
	Observed string `json:"observed"`
	Detail   string `json:"detail"`
	// ProducedBy lists the concurrency modes that diverged.
	ProducedBy []string `json:"produced_by,omitempty"`
	Expected   string   `json:"expected,omitempty"`
	Matched    *bool    `json:"matched,omitempty"`
}

// CaseReport is the evidence of one argument set.
type CaseReport struct {
	ID        string         `json:"id"`
	Arguments map[string]any `json:"arguments"`
	Runs      []RunEvidence  `json:"runs"`
	Errors    []ErroredCall  `json:"errored_calls,omitempty"`
	Failures  []string       `json:"session_failures,omitempty"`
	// Notes are problems that did not end a session (a non-zero exit).
	Notes      []string             `json:"notes,omitempty"`
	Network    []sandbox.NetAttempt `json:"network_attempts,omitempty"`
	Concurrent *ConcurrentEvidence  `json:"concurrent,omitempty"`
}

// RunEvidence is one run's once and twice deltas from its control.
type RunEvidence struct {
	Run   int           `json:"run"`
	Once  DeltaEvidence `json:"once"`
	Twice DeltaEvidence `json:"twice"`
}

// DeltaEvidence is a delta by category with a sample of its changes.
type DeltaEvidence struct {
	Counts  map[definition.Category]definition.Counts `json:"counts"`
	Changes []definition.Change                       `json:"changes,omitempty"`
	// Omitted counts the changes left out of the sample.
	Omitted int      `json:"omitted,omitempty"`
	Traces  []string `json:"traces"`
}

// ErroredCall is one tools/call that did not succeed.
type ErroredCall struct {
	Session  string `json:"session"`
	Position int    `json:"position"`
	Kind     string `json:"kind"`
	Message  string `json:"message,omitempty"`
	// StateChanged says whether the state changed across the session
	// (once) or across the second call (twice, against the run's once).
	StateChanged bool `json:"state_changed"`
}

// ConcurrentEvidence is every concurrent attempt of a case.
type ConcurrentEvidence struct {
	Modes    map[string]ModeCounts `json:"modes"`
	Attempts []Attempt             `json:"attempts"`
}

// ModeCounts sums one mode's attempts.
type ModeCounts struct {
	Attempts   int `json:"attempts"`
	Overlapped int `json:"overlapped"`
	Diverged   int `json:"diverged"`
	Errored    int `json:"errored"`
	Failed     int `json:"failed"`
}

// Attempt is one concurrent attempt: when each call was in flight, the
// overlap measured, and whether the final business state diverged from a
// single call's.
type Attempt struct {
	Mode    string `json:"mode"`
	Attempt int    `json:"attempt"`
	// OverlapUS is how long both calls were in flight at once; RTTUS the
	// round trips measured by ping beforehand (summed over connections).
	// Overlapped means the overlap exceeded the round trips, so both
	// requests were with the server at once.
	OverlapUS  int64    `json:"overlap_us"`
	RTTUS      int64    `json:"rtt_us"`
	Overlapped bool     `json:"overlapped"`
	Diverged   bool     `json:"diverged"`
	Errors     []string `json:"errors,omitempty"`
	Failure    string   `json:"failure,omitempty"`
	Traces     []string `json:"traces"`
}

// Instability is state that differed between runs of the same session.
type Instability struct {
	Session    string                `json:"session"`
	Categories []definition.Category `json:"categories"`
}

// SessionsInfo says how many sessions ran and where their traces are.
type SessionsInfo struct {
	Count    int    `json:"count"`
	TraceDir string `json:"trace_dir,omitempty"`
}

// ExpectationCheck holds a fixture's verdicts to its recorded truth.
type ExpectationCheck struct {
	Checked    int      `json:"checked"`
	Matched    int      `json:"matched"`
	Mismatches []string `json:"mismatches,omitempty"`
}
