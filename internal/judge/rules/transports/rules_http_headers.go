package transports

import (
	"fmt"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Request metadata headers (2026-07-28): Mcp-Method and Mcp-Name mirror
// the body, values that are not plain ASCII travel in a Base64 sentinel,
// and the server refuses a request whose headers and body disagree.
var httpHeaderChecks = []engine.Check{
	{ID: "http.standard-headers", Summary: "every POSTed request carries Mcp-Method, and Mcp-Name where the method has one, equal to the body's values"},
	{ID: "http.name-header-encoding", Summary: "an Mcp-Name whose value is not plain ASCII travels as a Base64 sentinel of it"},
	{ID: "http.header-sentinel-lowercase", Summary: "a Base64 sentinel is written exactly =?base64?...?=, in lower case"},
	{ID: "http.header-sentinel-escaped", Summary: "a plain value that looks like a Base64 sentinel is itself Base64-encoded"},
	{ID: "http.header-mismatch-rejected", Summary: "the server refuses a request whose mirrored headers are missing or disagree with its body"},
	{ID: "http.header-mismatch-error", Summary: "a request refused for its headers gets 400 Bad Request and a HeaderMismatch (-32020) error"},
	{ID: "http.version-mismatch-error", Summary: "a request whose MCP-Protocol-Version differs from its _meta gets 400 Bad Request and HeaderMismatch (-32020)"},
	{ID: "http.param-mismatch-rejected", Summary: "the server refuses a call whose Mcp-Param header disagrees with the argument"},
	{ID: "http.param-missing-rejected", Summary: "the server refuses a call that leaves out the Mcp-Param header of an argument present in the body"},
	{ID: "http.header-decoded-before-compare", Summary: "the server decodes Base64 sentinels before comparing: a correctly encoded header is not refused as a mismatch"},
	{ID: "http.method-not-found-404", Summary: "a Method not found (-32601) error travels with HTTP 404"},
}

// replyExpectation is what a request's headers oblige the server's reply
// to be; it is judged when the reply comes, or at the end.
type replyExpectation struct {
	// Mismatch lists validation failures the server must refuse.
	Mismatch []mismatch
	// BadChars lists recognized Mcp-Param headers with invalid characters.
	BadChars []string
	// Encoded, Omitted and Numeric say the request was sound in a way a
	// careless server might still refuse: a Base64 sentinel, a parameter
	// header left out because its value is null or absent, an integer
	// written differently in header and body.
	Encoded, Omitted, Numeric bool
	// Unsupported is a protocol version the server does not implement.
	Unsupported string
	Tool        string
	// unknowable is set when a mirrored header's value was redacted.
	unknowable bool
}

// mismatch is one way a request's headers fail validation.
type mismatch struct {
	kind string
	text string
}

// The kinds of mismatch, each bound by its own sentence.
const (
	mismatchVersion      = "version"
	mismatchStandard     = "standard"
	mismatchParamDiffers = "param-differs"
	mismatchParamMissing = "param-missing"
)

func (r *replyExpectation) Add(kind, text string) {
	r.Mismatch = append(r.Mismatch, mismatch{kind, text})
}

// Has reports whether a mismatch of kind was found.
func (r *replyExpectation) Has(kind string) bool {
	for _, m := range r.Mismatch {
		if m.kind == kind {
			return true
		}
	}
	return false
}

func (r *replyExpectation) describe() string {
	texts := make([]string, len(r.Mismatch))
	for i, m := range r.Mismatch {
		texts[i] = m.text
	}
	return strings.Join(texts, "; ")
}

func checkStandardHeaders(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg) {
	if !modernRequest(s, m) || !x.IsPost() || !x.once("standard-headers") {
		return
	}
	problems := methodProblems(x, m)
	if name := nameMirror(x, m); name != nil && !name.Matches() {
		problems = append(problems, mirrorProblem(*name))
	}
	s.Expect("http.standard-headers", len(problems) == 0, spec.Client, x.Request,
		"request %q: %s", m.Method, strings.Join(problems, "; "))
	if m.InBatch {
		// The reply to a batch answers its elements, not the one request
		// whose headers set what the reply owes; the batch itself breaks
		// the transport, and that clause judges it.
		return
	}
	_, tool := calledTool(s, m)
	x.Reply = expectReply(t, x, m, tool)
	if x.Reply != nil && x.Reply.unknowable {
		x.Reply = nil // what the server owes depends on a value the trace does not hold
	}
}

func methodProblems(x *httpExchange, m *message.Msg) []string {
	got, ok := x.Header("mcp-method")
	switch {
	case !ok:
		return []string{"no Mcp-Method header"}
	case got != m.Method:
		return []string{fmt.Sprintf("Mcp-Method is %q, the body's method %q", got, m.Method)}
	}
	return nil
}

func mirrorProblem(h mirror) string {
	if !h.Sent {
		return fmt.Sprintf("no %s header, though the body carries %s", h.Label, h.Source)
	}
	return fmt.Sprintf("%s is %q, which does not carry the body's %s", h.Label, h.Header, h.Source)
}

// modernRequest reports whether m is a request of this revision's era: it
// carries its protocol version in _meta. A client that fell back to a
// legacy initialize speaks that older revision, whose headers differ.
func modernRequest(s *engine.Session, m *message.Msg) bool {
	return s.Stateless() && m.Kind == message.KindRequest && engine.MetaVersion(m) != ""
}

// checkHeaderEncodings holds Mcp-Name and every Mcp-Param header to the
// value encoding rules.
func checkHeaderEncodings(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg) {
	if !modernRequest(s, m) || !x.IsPost() || !x.once("encodings") {
		return
	}
	_, tool := calledTool(s, m)
	if name := nameMirror(x, m); name != nil {
		judgeEncoding(s, x, *name, "http.name-header-encoding")
	}
	if tool == nil || tool.Invalid != "" {
		return
	}
	for _, h := range paramMirrors(tool, x, m) {
		judgeEncoding(s, x, h, "http.param-header-encoding")
	}
}

func judgeEncoding(s *engine.Session, x *httpExchange, h mirror, check string) {
	if !h.Sent {
		return
	}
	if looksSentinel(h.Header) {
		s.Expect("http.header-sentinel-lowercase", isSentinel(h.Header), spec.Client, x.Request,
			"%s %q writes the Base64 sentinel markers in another case than =?base64?...?=", h.Label, h.Header)
	}
	if !h.Mirrorable {
		return
	}
	encodedRight := isSentinel(h.Header) && h.Matches()
	if needsBase64(h.Text) {
		s.Expect(check, encodedRight, spec.Client, x.Request,
			"%s carries %q, which is not plain ASCII, as %q instead of its Base64 sentinel", h.Label, h.Text, h.Header)
	}
	if isSentinel(h.Text) {
		s.Expect("http.header-sentinel-escaped", encodedRight, spec.Client, x.Request,
			"%s carries the plain value %q, which looks like a Base64 sentinel, without encoding it", h.Label, h.Text)
	}
}

// expectReply works out what the request's headers oblige the server to do.
func expectReply(t *httpTrace, x *httpExchange, m *message.Msg, tool *engine.ListedTool) *replyExpectation {
	r := &replyExpectation{}
	if got, ok := x.Header("mcp-protocol-version"); ok && engine.MetaVersion(m) != "" && got != engine.MetaVersion(m) {
		r.Add(mismatchVersion, fmt.Sprintf("MCP-Protocol-Version %q differs from _meta %q", got, engine.MetaVersion(m)))
	}
	for _, p := range methodProblems(x, m) {
		r.Add(mismatchStandard, p)
	}
	if name := nameMirror(x, m); name != nil {
		r.weigh(*name, mismatchStandard, mismatchStandard)
	}
	if tool != nil && tool.Invalid == "" {
		for _, h := range paramMirrors(tool, x, m) {
			r.weigh(h, mismatchParamDiffers, mismatchParamMissing)
		}
		r.Tool = calledToolName(m)
	}
	if len(r.Mismatch) == 0 {
		r.Unsupported = unimplementedVersion(t, m)
	}
	return r
}

// weigh adds what one mirrored header obliges the server to; differs and
// missing are the kinds its mismatches count as.
func (r *replyExpectation) weigh(h mirror, differs, missing string) {
	value, encoded, _ := h.decoded()
	switch {
	case h.Redacted:
		r.unknowable = true
	case !h.Mirrorable && h.Sent:
		r.Add(differs, fmt.Sprintf("%s is sent though the body has no value for it", h.Label))
	case !h.Mirrorable:
		r.Omitted = true
	case !h.Sent:
		r.Add(missing, mirrorProblem(h))
	case invalidHeaderChars(h.Header) && strings.HasPrefix(h.Label, "Mcp-Param-"):
		r.BadChars = append(r.BadChars, h.Label)
	case h.Matches():
		r.Encoded = r.Encoded || encoded
		r.Numeric = r.Numeric || (h.Integer && value != strings.TrimSpace(string(h.Source)))
	default:
		r.Add(differs, mirrorProblem(h))
	}
}

func calledToolName(m *message.Msg) string {
	var p struct {
		Name string `json:"name"`
	}
	message.Decode(m.Params, &p)
	return p.Name
}

// checkHeaderValidationReply judges the reply to a request whose headers
// set expectations; endHeaderValidation judges those refused without one.
func checkHeaderValidationReply(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if m == nil || x.Reply == nil || !answers(m, x) || !x.once("reply") {
		return
	}
	judgeReply(s, t, x, m)
}

func endHeaderValidation(s *engine.Session, t *httpTrace) {
	t.exchanges.Each(func(x *httpExchange) {
		if x.Reply != nil && x.Response != nil && !x.OK() && x.once("reply") {
			judgeReply(s, t, x, nil)
		}
	})
}

func judgeReply(s *engine.Session, t *httpTrace, x *httpExchange, m *message.Msg) {
	r, code := x.Reply, errorCode(m)
	where := x.Response
	if m != nil {
		where = m.Event
	}
	if len(r.Mismatch) > 0 {
		judgeMismatchReply(s, x, m, where)
	} else if len(r.BadChars) == 0 {
		judgeSoundReply(s, x, where, code)
	}
	if len(r.BadChars) > 0 {
		s.Expect("http.param-header-invalid-rejected", refused(x, m), spec.Server, where,
			"the server processed a request whose %s header holds invalid characters", strings.Join(r.BadChars, ", "))
	}
	if r.Unsupported != "" {
		ok := x.Status() == 400 && code == engine.CodeUnsupportedVersion && listsSupported(m)
		s.Expect("http.unsupported-version-error", ok, spec.Server, where,
			"a request for revision %q, which the server does not implement, was answered %d %s, not 400 with UnsupportedProtocolVersionError (-32022) listing the supported versions",
			r.Unsupported, x.Status(), replyWord(m))
	}
	if code == engine.CodeHeaderMismatch && r.Tool != "" {
		t.mismatchedTool(r.Tool)
	}
}

func judgeMismatchReply(s *engine.Session, x *httpExchange, m *message.Msg, where *trace.Event) {
	r, problems := x.Reply, x.Reply.describe()
	rightError := x.Status() == 400 && errorCode(m) == engine.CodeHeaderMismatch
	s.Expect("http.header-mismatch-rejected", refused(x, m), spec.Server, where,
		"the server processed a request whose headers disagree with its body: %s", problems)
	s.Expect("http.header-mismatch-error", rightError, spec.Server, where,
		"a request whose headers disagree with its body (%s) was answered %d %s, not 400 with HeaderMismatch (-32020)",
		problems, x.Status(), replyWord(m))
	if r.Has(mismatchVersion) {
		s.Expect("http.version-mismatch-error", rightError, spec.Server, where,
			"a request whose MCP-Protocol-Version differs from its _meta was answered %d %s, not 400 with HeaderMismatch (-32020)",
			x.Status(), replyWord(m))
	}
	if r.Has(mismatchParamDiffers) {
		s.Expect("http.param-mismatch-rejected", refused(x, m), spec.Server, where,
			"the server processed a call whose Mcp-Param header disagrees with the argument: %s", problems)
	}
	if r.Has(mismatchParamMissing) {
		s.Expect("http.param-missing-rejected", refused(x, m), spec.Server, where,
			"the server processed a call that left out the Mcp-Param header of an argument it carries: %s", problems)
	}
}

// judgeSoundReply: a request whose headers were right is not refused as a
// mismatch for the forms the rules allow.
func judgeSoundReply(s *engine.Session, x *httpExchange, where *trace.Event, code int64) {
	refusedAsMismatch := code == engine.CodeHeaderMismatch
	r := x.Reply
	if r.Encoded {
		s.Expect("http.header-decoded-before-compare", !refusedAsMismatch, spec.Server, where,
			"the server refused as HeaderMismatch a request whose Base64-encoded headers decode to the body's values")
	}
	if r.Omitted {
		s.Expect("http.param-header-not-expected", !refusedAsMismatch, spec.Server, where,
			"the server refused as HeaderMismatch a request that left out the header of a null or absent parameter")
	}
	if r.Numeric {
		s.Expect("http.param-header-numeric-compare", !refusedAsMismatch, spec.Server, where,
			"the server refused as HeaderMismatch a request whose integer header and body differ only in how they are written")
	}
}

func refused(x *httpExchange, m *message.Msg) bool {
	return x.Status() >= 400 || (m != nil && m.Kind == message.KindError)
}

func replyWord(m *message.Msg) string {
	if m == nil {
		return "with no JSON-RPC error"
	}
	if code := errorCode(m); code != 0 {
		return fmt.Sprintf("with error code %d", code)
	}
	return "with a result"
}

// errorCode is the integer code of an error response, 0 otherwise.
func errorCode(m *message.Msg) int64 {
	if m == nil || m.Kind != message.KindError {
		return 0
	}
	code, _ := m.Error.IntCode()
	return code
}

func listsSupported(m *message.Msg) bool {
	if m == nil || m.Error == nil {
		return false
	}
	var data struct {
		Supported []string `json:"supported"`
	}
	return message.Decode(m.Error.Data, &data) && data.Supported != nil
}

func checkMethodNotFound(s *engine.Session, t *httpTrace, x *httpExchange, ev *trace.Event, m *message.Msg) {
	if !s.Stateless() || errorCode(m) != engine.CodeMethodNotFound || !answers(m, x) {
		return
	}
	s.Expect("http.method-not-found-404", x.Status() == 404, spec.Server, ev,
		"Method not found (-32601) for %q travelled with HTTP status %d, not 404 Not Found", x.Call().Method, x.Status())
}
