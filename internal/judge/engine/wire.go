package engine

import (
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
)

// WireFinding is one message that breaks its revision's JSON Schema.
type WireFinding struct {
	Party      spec.Party `json:"party"`
	Trace      string     `json:"trace"`
	Line       int        `json:"line"`
	Seq        int64      `json:"seq"`
	Definition string     `json:"definition"`
	Pointer    string     `json:"pointer"`
	Error      string     `json:"error"`
}

// WireResult is the wire-schema verdict of one run: reported beside the
// clause rows, not counted in their totals, but an invalid message fails
// the verdict.
type WireResult struct {
	Checked bool `json:"checked"`
	// NotChecked says why the messages were not validated, and how to fix it.
	NotChecked string `json:"not_checked,omitempty"`
	// NotApplicable says why a run has no messages to hold to a schema (a
	// contract lockfile's run): nothing was left unchecked.
	NotApplicable string        `json:"not_applicable,omitempty"`
	Schema        string        `json:"schema,omitempty"`
	Messages      int           `json:"messages"`
	Valid         int           `json:"valid"`
	Invalid       []WireFinding `json:"invalid,omitempty"`
}

// wireCheck validates a run's messages against one revision's schema: in
// the judge's own goroutine, or on a pool of workers (wire_pool.go).
type wireCheck struct {
	v      *wireschema.Checker
	pool   *wirePool
	result WireResult
}

func newWireCheck(rev, trace string, opts Options) *wireCheck {
	v := opts.Schemas[rev]
	if v == nil {
		reason := opts.SchemasMissing
		if reason == "" {
			reason = fmt.Sprintf("no schema for %s: %s", rev, wireschema.FixHint)
		}
		return &wireCheck{result: WireResult{NotChecked: reason}}
	}
	w := &wireCheck{result: WireResult{Checked: true, Schema: v.Path}}
	if workers := opts.wireWorkers(); workers > 1 {
		w.pool = newWirePool(v, trace, workers)
	} else {
		w.v = v.NewChecker()
	}
	return w
}

func (w *wireCheck) Message(r *run, m *message.Msg) {
	if !w.Checking() || m.HTTPErrorBody {
		return
	}
	w.result.Messages++
	if w.pool != nil {
		w.pool.add(wireJob{msg: wireMessage(m), party: m.From, line: m.Event.Line, seq: m.Event.Seq}, &w.result)
		return
	}
	problems := validateWire(w.v, wireMessage(m))
	if len(problems) == 0 {
		w.result.Valid++
		return
	}
	for _, p := range problems {
		w.result.Invalid = append(w.result.Invalid, WireFinding{
			Party: m.From, Trace: r.trace, Line: m.Event.Line, Seq: m.Event.Seq,
			Definition: p.Definition, Pointer: p.Pointer, Error: p.Error,
		})
	}
}

// Checking reports whether the run's messages are held to a schema.
func (w *wireCheck) Checking() bool { return w.v != nil || w.pool != nil }

// finish is the run's wire-schema result, once every message is checked.
func (w *wireCheck) finish() WireResult {
	if w.pool != nil {
		w.pool.finish(&w.result)
		w.pool = nil
	}
	return w.result
}

// validateWire holds one message to the schema; an error of the validator
// itself is a finding, not a crash.
func validateWire(c *wireschema.Checker, m wireschema.Message) []wireschema.Problem {
	problems, err := c.Validate(m)
	if err != nil {
		return []wireschema.Problem{{Definition: "?", Error: err.Error()}}
	}
	return problems
}

func wireMessage(m *message.Msg) wireschema.Message {
	wm := wireschema.Message{Body: m.Body, Text: m.Text, Params: m.Params, Result: m.Result, Method: m.Method}
	switch m.Kind {
	case message.KindRequest:
		wm.Kind = wireschema.Request
	case message.KindNotification:
		wm.Kind = wireschema.Notification
	case message.KindError:
		wm.Kind = wireschema.Error
	case message.KindResult:
		wm.Kind = wireschema.Result
	default:
		wm.Kind = wireschema.Any
	}
	if m.Request != nil {
		wm.RequestMethod = m.Request.Method
	}
	return wm
}

// invalidFor counts the invalid messages held against scope ("" for both).
func (w *WireResult) invalidFor(scope spec.Party) int {
	n := 0
	for _, f := range w.Invalid {
		if scope == "" || f.Party == scope {
			n++
		}
	}
	return n
}
