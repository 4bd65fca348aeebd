package transports

import (
	"bytes"
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// maxRawRun bounds the consecutive non-JSON lines held while deciding
// whether they are one message split by embedded newlines.
const maxRawRun = 64

// stdio framing: one JSON-RPC message per line, and nothing else on the
// server's stdout or stdin. The recorder splits on newlines, so a message
// with embedded newlines arrives as several lines that are not JSON alone
// but are once joined again.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{{Transport: trace.Stdio}},
		Checks: []engine.Check{
			{ID: "stdio.no-embedded-newlines", Summary: "no stdio message is spread over several lines"},
			{ID: "stdio.only-mcp-messages", Summary: "every line on the server's stdout and stdin is a JSON-RPC message"},
		},
		New: func() engine.Rule { return &stdioFramingRule{} },
	})
}

type stdioFramingRule struct {
	engine.BaseRule
	// raw holds, per sending party, the run of non-JSON lines not yet judged.
	raw [2][]*trace.Event
}

func (r *stdioFramingRule) Message(s *engine.Session, m *message.Msg) {
	if m.Event.Transport != trace.Stdio {
		return
	}
	side := engine.PartyIndex(m.From)
	if m.Event.Payload == nil {
		if len(r.raw[side]) >= maxRawRun {
			r.flush(s, m.From)
		}
		r.raw[side] = append(r.raw[side], m.Event)
		return
	}
	if len(r.raw[side]) > 0 { // nearly always none: no call
		r.flush(s, m.From)
	}
	s.Pass("stdio.no-embedded-newlines", m.From)
	if m.Kind == message.KindInvalid && m.Problem == message.NotJSONRPC && !m.InBatch {
		// JSON, but none of a JSON-RPC message's members: as foreign to
		// the pipe as a line that is not JSON at all.
		s.Fail("stdio.only-mcp-messages", m.From, m.Event, "the %s wrote %q to %s, which is JSON but not a JSON-RPC message",
			m.From, engine.Clip(m.Event.Bytes()), pipeOf(m.From))
		return
	}
	s.Pass("stdio.only-mcp-messages", m.From)
}

func (r *stdioFramingRule) Lifecycle(s *engine.Session, ev *trace.Event) {
	r.flush(s, spec.Client)
	r.flush(s, spec.Server)
}

func (r *stdioFramingRule) End(s *engine.Session) { r.Lifecycle(s, nil) }

// flush judges a run of non-JSON lines: each stretch that joins back into
// one JSON message had embedded newlines; any other line is not a message.
func (r *stdioFramingRule) flush(s *engine.Session, from spec.Party) {
	lines := r.raw[engine.PartyIndex(from)]
	r.raw[engine.PartyIndex(from)] = nil
	for i := 0; i < len(lines); {
		if j := joinedMessageEnd(lines, i); j > i {
			s.Fail("stdio.no-embedded-newlines", from, lines[i],
				"a message of the %s spans %d lines (%d to %d): it holds embedded newlines", from, j-i+1, lines[i].Line, lines[j].Line)
			i = j + 1
			continue
		}
		s.Fail("stdio.only-mcp-messages", from, lines[i], "the %s wrote %q to %s, which is not a JSON-RPC message",
			from, engine.Clip(lines[i].Bytes()), pipeOf(from))
		i++
	}
}

// joinedMessageEnd returns the smallest j > i such that lines i..j joined
// with newlines are one JSON object or array, or -1.
func joinedMessageEnd(lines []*trace.Event, i int) int {
	joined := append([]byte(nil), lines[i].Bytes()...)
	for j := i + 1; j < len(lines); j++ {
		joined = append(append(joined, '\n'), lines[j].Bytes()...)
		if isStructuredJSON(joined) {
			return j
		}
	}
	return -1
}

func isStructuredJSON(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t)
}

func pipeOf(p spec.Party) string {
	if p == spec.Server {
		return "its stdout"
	}
	return "the server's stdin"
}
