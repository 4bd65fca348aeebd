package judge

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/jsonrpc"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// The JSON-RPC 2.0 framing every MCP message must follow.
func init() {
	register(RuleSpec{
		Checks: []Check{
			{"jsonrpc.message-shape", `every message is a JSON-RPC 2.0 request, notification or response with "jsonrpc": "2.0"`},
			{"jsonrpc.request-id-type", "every request id is a string or an integer"},
			{"jsonrpc.request-id-not-null", "no request id is null"},
			{"jsonrpc.request-id-unique", "no party reuses a request id within a session"},
			{"jsonrpc.request-id-unique-in-flight", "no party reuses the id of a request of its own still awaiting a response"},
			{"jsonrpc.result-id-known", "every result carries the id of a request the peer sent and has not yet had answered"},
			{"jsonrpc.error-id-known", "every error response carries the id of a request the peer sent and has not yet had answered, or null"},
			{"jsonrpc.response-solicited", "no response answers an id the peer never used on a request (a notification is never answered)"},
			{"jsonrpc.result-member", "a successful response carries a result member"},
			{"jsonrpc.error-shape", "an error response carries an error object with a code and a message"},
			{"jsonrpc.error-code-integer", "error codes are integers"},
			{"jsonrpc.notification-no-id", "a notification (a notifications/* method) carries no id"},
			{"jsonrpc.result-object", "the result of a successful response is a JSON object"},
			{"jsonrpc.error-message-concise", "an error message is one concise sentence"},
		},
		New: func() Rule { return &jsonrpcRule{} },
	})
}

type jsonrpcRule struct {
	BaseRule
	names rawjson.DuplicateScanner
	// nestedNoted is set once a repeated name that no clause judges has
	// been noted: the first says what the judge read, the rest would
	// only repeat it.
	nestedNoted bool
}

func (r *jsonrpcRule) Message(s *Session, m *Msg) {
	if !m.HTTPErrorBody {
		r.checkShape(s, m)
	}
	switch m.Kind {
	case KindNotification:
		s.Pass("jsonrpc.notification-no-id", m.From)
	case KindRequest:
		checkRequestID(s, m)
	case KindResult:
		checkResponseID(s, m)
		checkResultObject(s, m)
	case KindError:
		checkErrorShape(s, m)
		checkResponseID(s, m)
	}
}

func (r *jsonrpcRule) checkShape(s *Session, m *Msg) {
	const id = "jsonrpc.message-shape"
	// Every name of a message is read where the wire schema is checked,
	// which decodes the whole message anyway; elsewhere only the
	// message's own members, whose repetition is what fails BASE-002.
	r.names.Shallow = !s.run.wire.checking()
	dup, repeated := r.names.First(m.text)
	switch {
	case m.Kind == KindInvalid:
		s.Fail(id, m.From, m.Event, "%s", m.Problem)
	case repeated && dup.Depth == 0 && isJSONRPCMember(dup.Name):
		s.Fail(id, m.From, m.Event, "%s %s has the member %q more than once (byte %d of the message), so which %q it carries is not defined; the judge read the last, as JSON.parse does", m.Kind, describe(m), dup.Name, dup.At, dup.Name)
	case !m.HasJSONRPC:
		s.Fail(id, m.From, m.Event, `%s %s has no "jsonrpc" member`, m.Kind, describe(m))
	case m.JSONRPC != "2.0":
		s.Fail(id, m.From, m.Event, `%s %s has "jsonrpc": %q, not "2.0"`, m.Kind, describe(m), m.JSONRPC)
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

func checkRequestID(s *Session, m *Msg) {
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
	if !isStringOrInteger(m.ID) {
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

func checkResponseID(s *Session, m *Msg) {
	id := "jsonrpc.result-id-known"
	if m.Kind == KindError {
		id = "jsonrpc.error-id-known"
	}
	checkSolicited(s, m)
	switch {
	case idUnread(m):
		s.Pass(id, m.From) // allowed when the request's id could not be read
	case m.Request == nil && s.used[partyIndex(Peer(m.From))].contains(m.IDKey):
		s.Fail(id, m.From, m.Event, "%s with id %s answers a request of the %s that was already answered", m.Kind, m.ID, Peer(m.From))
	case m.Request == nil:
		s.Fail(id, m.From, m.Event, "%s with id %s answers no request the %s sent", m.Kind, m.ID, Peer(m.From))
	case m.Answered:
		s.Fail(id, m.From, m.Event, "%s with id %s answers request %q (line %d) a second time", m.Kind, m.ID, m.Request.Method, m.Request.Line)
	default:
		s.Pass(id, m.From)
	}
	if m.Kind == KindResult {
		s.Pass("jsonrpc.result-member", m.From)
	}
}

func checkResultObject(s *Session, m *Msg) {
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

func checkErrorShape(s *Session, m *Msg) {
	e := m.Error
	if e == nil || e.Code == nil || e.Message == nil {
		s.Fail("jsonrpc.error-shape", m.From, m.Event, "error response with id %s lacks an error object with both code and message", m.ID)
		return
	}
	s.Pass("jsonrpc.error-shape", m.From)
	s.Expect("jsonrpc.error-message-concise", isOneSentence(*e.Message), m.From, m.Event,
		"the error message %s is more than one sentence", quoteValue(*e.Message))
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
func idUnread(m *Msg) bool {
	return m.Kind == KindError && (len(m.ID) == 0 || bytes.Equal(m.ID, []byte("null")))
}

func checkSolicited(s *Session, m *Msg) {
	if idUnread(m) {
		return
	}
	peer := Peer(m.From)
	if !s.used[partyIndex(peer)].contains(m.IDKey) {
		s.Fail("jsonrpc.response-solicited", m.From, m.Event, "%s with id %s answers an id the %s never used on a request", m.Kind, m.ID, peer)
	} else {
		s.Pass("jsonrpc.response-solicited", m.From)
	}
}

// noResultRule catches responses with neither result nor error, which the
// parser classifies as invalid, under the result-member check.
type noResultRule struct{ BaseRule }

func init() {
	register(RuleSpec{Checks: nil, New: func() Rule { return noResultRule{} }, Sees: []sight{{kinds: invalidMsgs}}})
}

func (noResultRule) Message(s *Session, m *Msg) {
	if m.Kind == KindInvalid && m.ID != nil && m.Problem == "a response with neither result nor error" {
		s.Fail("jsonrpc.result-member", m.From, m.Event, "response with id %s has neither result nor error", m.ID)
	}
}

func isStringOrInteger(id []byte) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		return true
	}
	for i, c := range id {
		if (c < '0' || c > '9') && !(i == 0 && c == '-') {
			return false
		}
	}
	return true
}

func describe(m *Msg) string {
	switch {
	case m.Method != "":
		return `"` + m.Method + `"`
	case m.ID != nil:
		return "with id " + string(m.ID)
	}
	return ""
}

var _ = spec.Both
