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

// wireCheck validates a run's messages against one revision's schema.
type wireCheck struct {
	V      *wireschema.Checker
	result WireResult
}

func newWireCheck(rev string, opts Options) *wireCheck {
	v := opts.Schemas[rev]
	if v == nil {
		reason := opts.SchemasMissing
		if reason == "" {
			reason = fmt.Sprintf("no schema for %s: %s", rev, wireschema.FixHint)
		}
		return &wireCheck{result: WireResult{NotChecked: reason}}
	}
	return &wireCheck{V: v.NewChecker(), result: WireResult{Checked: true, Schema: v.Path}}
}

func (w *wireCheck) Message(r *run, m *message.Msg) {
	if w.V == nil || m.HTTPErrorBody {
		return
	}
	w.result.Messages++
	problems, err := w.V.Validate(wireMessage(m))
	if err != nil {
		problems = []wireschema.Problem{{Definition: "?", Error: err.Error()}}
	}
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

func wireMessage(m *message.Msg) wireschema.Message {
	wm := wireschema.Message{Body: m.Body, Method: m.Method}
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
