package base

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/jsonrpc"
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// The JSON-RPC 2.0 framing every MCP message must follow.
func init() {
	engine.Register(engine.RuleSpec{
		Checks: []engine.Check{
			{ID: "jsonrpc.message-shape", Summary: `every message is a JSON-RPC 2.0 request, notification or response with "jsonrpc": "2.0"`},
			{ID: "jsonrpc.request-id-type", Summary: "every request id is a string or an integer"},
			{ID: "jsonrpc.request-id-not-null", Summary: "no request id is null"},
			{ID: "jsonrpc.request-id-unique", Summary: "no party reuses a request id within a session"},
			{ID: "jsonrpc.request-id-unique-in-flight", Summary: "no party reuses the id of a request of its own still awaiting a response"},
			{ID: "jsonrpc.result-id-known", Summary: "every result carries the id of a request the peer sent and has not yet had answered"},
			{ID: "jsonrpc.error-id-known", Summary: "every error response carries the id of a request the peer sent and has not yet had answered, or null"},
			{ID: "jsonrpc.response-solicited", Summary: "no response answers an id the peer never used on a request (a notification is never answered)"},
			{ID: "jsonrpc.result-member", Summary: "a successful response carries a result member"},
			{ID: "jsonrpc.error-shape", Summary: "an error response carries an error object with a code and a message"},
			{ID: "jsonrpc.error-code-integer", Summary: "error codes are integers"},
			{ID: "jsonrpc.notification-no-id", Summary: "a notification (a notifications/* method) carries no id"},
			{ID: "jsonrpc.result-object", Summary: "the result of a successful response is a JSON object"},
			{ID: "jsonrpc.error-message-concise", Summary: "an error message is one concise sentence"},
		},
		New: func() engine.Rule { return &jsonrpcRule{} },
	})
}

type jsonrpcRule struct {
	engine.BaseRule
	names rawjson.DuplicateScanner
	// nestedNoted is set once a repeated name that no clause judges has
	// been noted: the first says what the judge read, the rest would
	// only repeat it.
	nestedNoted bool
}

func (r *jsonrpcRule) Message(s *engine.Session, m *message.Msg) {
	if !m.HTTPErrorBody {
		r.checkShape(s, m)
	}
	switch m.Kind {
	case message.KindNotification:
		s.Pass("jsonrpc.notification-no-id", m.From)
	case message.KindRequest:
		checkRequestID(s, m)
	case message.KindResult:
		checkResponseID(s, m)
		checkResultObject(s, m)
	case message.KindError:
		checkErrorShape(s, m)
		checkResponseID(s, m)
	}
}

func (r *jsonrpcRule) checkShape(s *engine.Session, m *message.Msg) {
	const id = "jsonrpc.message-shape"
	// Every name of a message is read where the wire schema is checked,
	// which decodes the whole message anyway; elsewhere only the
	// message's own members, whose repetition is what fails BASE-002.
	r.names.Shallow = !s.Run.Wire.Checking()
	dup, repeated := r.names.First(m.Text)
	switch {
	case m.Kind == message.KindInvalid:
		s.Fail(id, m.From, m.Event, "%s", m.Problem)
	case repeated && dup.Depth == 0 && isJSONRPCMember(dup.Name):
		s.Fail(id, m.From, m.Event, "%s %s has the member %q more than once (byte %d of the message), so which %q it carries is not defined; the judge read the last, as JSON.parse does", m.Kind, engine.Describe(m), dup.Name, dup.At, dup.Name)
	case !m.HasJSONRPC:
		s.Fail(id, m.From, m.Event, `%s %s has no "jsonrpc" member`, m.Kind, engine.Describe(m))
	case m.JSONRPC != "2.0":
		s.Fail(id, m.From, m.Event, `%s %s has "jsonrpc": %q, not "2.0"`, m.Kind, engine.Describe(m), m.JSONRPC)
	default:
		s.Pass(id, m.From)
	}
	if repeated && !r.nestedNoted && (dup.Depth > 0 || !isJSONRPCMember(dup.Name)) {
		r.nestedNoted = true
		s.Note("line %d: the %s sent an object with the member %q more than once (byte %d of the message); JSON names should be unique, and the judge read the last, as JSON.parse does, here and wherever else a name repeats", m.Event.Line, m.From, dup.Name, dup.At)
	}
}

// isJSONRPCMember reports whether name is one of the members JSON-RPC 2.0
// defines for its message objects.
func isJSONRPCMember(name string) bool { return jsonrpc.Slot([]byte(name)) >= 0 }

func checkRequestID(s *engine.Session, m *message.Msg) {
	if strings.HasPrefix(m.Method, "notifications/") {
		s.Fail("jsonrpc.notification-no-id", m.From, m.Event, "notification %q carries id %s", m.Method, m.ID)
	}
	if bytes.Equal(m.ID, []byte("null")) {
		s.Fail("jsonrpc.request-id-not-null", m.From, m.Event, "request %q has a null id", m.Method)
		return
	}
	s.Pass("jsonrpc.request-id-not-null", m.From)
	// Every request passes through here: the findings' arguments are only
	// built when there is a finding.
	if !engine.IsStringOrInteger(m.ID) {
		s.Fail("jsonrpc.request-id-type", m.From, m.Event, "request %q has id %s, which is neither a string nor an integer", m.Method, m.ID)
	} else {
		s.Pass("jsonrpc.request-id-type", m.From)
	}
	if s.IDUsed(m) {
		s.Fail("jsonrpc.request-id-unique", m.From, m.Event, "request %q reuses id %s, already used by the %s in this session", m.Method, m.ID, m.From)
	} else {
		s.Pass("jsonrpc.request-id-unique", m.From)
	}
	if prev := s.Pending(m.From, m.IDKey); prev != nil {
		s.Fail("jsonrpc.request-id-unique-in-flight", m.From, m.Event,
			"request %q reuses id %s of request %q (line %d), which has not been answered yet", m.Method, m.ID, prev.Method, prev.Line)
	} else {
		s.Pass("jsonrpc.request-id-unique-in-flight", m.From)
	}
}

func checkResponseID(s *engine.Session, m *message.Msg) {
	id := "jsonrpc.result-id-known"
	if m.Kind == message.KindError {
		id = "jsonrpc.error-id-known"
	}
	checkSolicited(s, m)
	switch {
	case idUnread(m):
		s.Pass(id, m.From) // allowed when the request's id could not be read
	case m.Request == nil && s.Used[engine.PartyIndex(message.Peer(m.From))].Contains(m.IDKey):
		s.Fail(id, m.From, m.Event, "%s with id %s answers a request of the %s that was already answered", m.Kind, m.ID, message.Peer(m.From))
	case m.Request == nil:
		s.Fail(id, m.From, m.Event, "%s with id %s answers no request the %s sent", m.Kind, m.ID, message.Peer(m.From))
	case m.Answered:
		s.Fail(id, m.From, m.Event, "%s with id %s answers request %q (line %d) a second time", m.Kind, m.ID, m.Request.Method, m.Request.Line)
	default:
		s.Pass(id, m.From)
	}
	if m.Kind == message.KindResult {
		s.Pass("jsonrpc.result-member", m.From)
	}
}

func checkResultObject(s *engine.Session, m *message.Msg) {
	if rawjson.Kind(m.Result) != '{' {
		s.Fail("jsonrpc.result-object", m.From, m.Event, "the result with id %s is %s, not a JSON object", m.ID, abbreviate(m.Result))
	} else {
		s.Pass("jsonrpc.result-object", m.From)
	}
}

// abbreviate shortens a JSON value for a message.
func abbreviate(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "..."
	}
	return string(raw)
}

func checkErrorShape(s *engine.Session, m *message.Msg) {
	e := m.Error
	if e == nil || e.Code == nil || e.Message == nil {
		s.Fail("jsonrpc.error-shape", m.From, m.Event, "error response with id %s lacks an error object with both code and message", m.ID)
		return
	}
	s.Pass("jsonrpc.error-shape", m.From)
	s.Expect("jsonrpc.error-message-concise", isOneSentence(*e.Message), m.From, m.Event,
		"the error message %s is more than one sentence", engine.QuoteValue(*e.Message))
	_, isInt := e.IntCode()
	s.Expect("jsonrpc.error-code-integer", isInt, m.From, m.Event, "error code %s is not an integer", e.Code)
}

// sentenceBreak finds where one sentence ends and another begins.
var sentenceBreak = regexp.MustCompile(`[.!?]\s+[A-Z]`)

// isOneSentence reports whether an error message reads as one sentence: no
// line break, and no sentence end followed by another sentence.
func isOneSentence(msg string) bool {
	return !strings.ContainsAny(msg, "\n\r") && !sentenceBreak.MatchString(msg)
}

// idUnread reports an error response that names no request: its id is
// null (JSON-RPC's way) or absent (which the MCP schema allows, since MCP ids
// are never null). Both are how a receiver answers a message whose id it
// could not read.
func idUnread(m *message.Msg) bool {
	return m.Kind == message.KindError && (len(m.ID) == 0 || bytes.Equal(m.ID, []byte("null")))
}

func checkSolicited(s *engine.Session, m *message.Msg) {
	if idUnread(m) {
		return
	}
	peer := message.Peer(m.From)
	if !s.Used[engine.PartyIndex(peer)].Contains(m.IDKey) {
		s.Fail("jsonrpc.response-solicited", m.From, m.Event, "%s with id %s answers an id the %s never used on a request", m.Kind, m.ID, peer)
	} else {
		s.Pass("jsonrpc.response-solicited", m.From)
	}
}

// noResultRule catches responses with neither result nor error, which the
// parser classifies as invalid, under the result-member check.
type noResultRule struct{ engine.BaseRule }

func init() {
	engine.Register(engine.RuleSpec{Checks: nil, New: func() engine.Rule { return noResultRule{} }, Sees: []engine.Sight{{Kinds: engine.InvalidMsgs}}})
}

func (noResultRule) Message(s *engine.Session, m *message.Msg) {
	if m.Kind == message.KindInvalid && m.ID != nil && m.Problem == "a response with neither result nor error" {
		s.Fail("jsonrpc.result-member", m.From, m.Event, "response with id %s has neither result nor error", m.ID)
	}
}
