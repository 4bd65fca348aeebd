package versioning

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Versioning and compatibility (2026-07-28): per-request version
// negotiation, extension identifiers and fallback, and what a modern server
// tells a legacy client.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{engine.Sees(engine.RequestMsgs, spec.Client), engine.Sees(engine.ResponseMsgs, spec.Server)},
		Checks: []engine.Check{
			{ID: "versioning.unsupported-version-error", Summary: "a request for a version the server does not support is answered with error -32022 listing the supported versions"},
			{ID: "versioning.unsupported-version-http-400", Summary: "over HTTP, error -32022 comes with status 400"},
			{ID: "versioning.client-retry-supported", Summary: "after error -32022 the client's next request uses a version from the error's supported list"},
			{ID: "versioning.extension-identifier", Summary: "extension identifiers in capabilities follow the _meta key naming rules, with a prefix"},
			{ID: "versioning.extension-fallback", Summary: "a server keeps to core result types for a request whose client capabilities advertise no extension"},
			{ID: "versioning.initialize-error-names-versions", Summary: "an error answering initialize names the protocol versions the server supports"},
		},
		New:      func() engine.Rule { return &versioningRule{} },
		Messages: engine.StatelessOnly,
	})
}

type versioningRule struct {
	engine.BaseRule
	// supported is the server's supported versions as it last stated them
	// (a discover result or a -32022 error); nil until it has.
	supported []string
	// retryFrom is the supported list of a -32022 the client has not yet
	// sent a request after.
	retryFrom []string
	awaiting  bool
	statuses  engine.ExchangeStatus
}

func (r *versioningRule) HTTP(_ *engine.Session, ev *trace.Event) { r.statuses.Note(ev) }

func (r *versioningRule) Message(s *engine.Session, m *message.Msg) {
	if !s.Stateless() {
		return
	}
	switch {
	case m.Kind == message.KindRequest && m.From == spec.Client:
		r.clientRequest(s, m)
	case engine.AnswersClientRequest(m) && m.Request.Method == "server/discover" && m.Kind == message.KindResult:
		r.discoverResult(s, m)
		checkExtensionFallback(s, m)
	case engine.AnswersClientRequest(m):
		r.answer(s, m)
		checkExtensionFallback(s, m)
	case m.From == spec.Server && m.Kind == message.KindError && m.Error != nil && m.Request != nil && m.Request.Method == "initialize":
		checkInitializeError(s, m)
	}
}

// checkExtensionFallback: a request whose client capabilities advertise no
// extension is one the client serves with the core protocol only, so the
// server answers it with core behaviour even if it supports extensions.
func checkExtensionFallback(s *engine.Session, m *message.Msg) {
	var res struct {
		ResultType *string `json:"resultType"`
	}
	if m.Kind != message.KindResult || !message.Decode(m.Result, &res) || res.ResultType == nil || engine.AdvertisesExtensions(engine.RequestCaps(m.Request)) {
		return
	}
	switch {
	case !engine.CoreResultTypes[*res.ResultType]:
		s.Fail("versioning.extension-fallback", spec.Server, m.Event,
			"the result for %s has resultType %q, an extension's, but the request's client capabilities advertise no extension", engine.RequestName(m), *res.ResultType)
	case engine.AdvertisesExtensions(s.ServerCaps):
		s.Pass("versioning.extension-fallback", spec.Server)
	}
}

func (r *versioningRule) clientRequest(s *engine.Session, m *message.Msg) {
	checkExtensionIDs(s, m, metaCapsOf(m.ParamsMeta()), "the request's clientCapabilities")
	version := engine.RequestVersionOf(m.Params)
	if !r.awaiting || version == "" {
		return
	}
	r.awaiting = false
	s.Expect("versioning.client-retry-supported", slices.Contains(r.retryFrom, version), spec.Client, m.Event,
		"after error -32022 listed %q as supported, the client's next request %q uses version %q", r.retryFrom, m.Method, version)
}

func (r *versioningRule) discoverResult(s *engine.Session, m *message.Msg) {
	var res struct {
		SupportedVersions []string                   `json:"supportedVersions"`
		Capabilities      map[string]json.RawMessage `json:"capabilities"`
	}
	message.Decode(m.Result, &res)
	checkExtensionIDs(s, m, res.Capabilities, "the discover result's capabilities")
	if res.SupportedVersions != nil {
		r.supported = res.SupportedVersions
	}
	r.answer(s, m)
}

// answer judges a server answer against the versions the server says it
// supports: one for a version outside them must be -32022.
func (r *versioningRule) answer(s *engine.Session, m *message.Msg) {
	code, _ := m.Error.IntCode()
	if m.Kind == message.KindError && code == engine.CodeUnsupportedVersion {
		r.unsupportedVersionError(s, m)
		return
	}
	version := engine.RequestVersion(m.Request)
	if r.supported == nil || version == "" || slices.Contains(r.supported, version) {
		return
	}
	if m.Kind == message.KindError && code == engine.CodeHeaderMismatch {
		// The request's headers and body disagreed (the header may name a
		// supported version where _meta does not); refusing it as a mismatch
		// comes before judging the version it asked for.
		return
	}
	s.Fail("versioning.unsupported-version-error", spec.Server, m.Event,
		"request %q (line %d) asked for version %q, which the server's supported versions %q do not include, yet it was answered with %s, not error -32022",
		m.Request.Method, m.Request.Line, version, r.supported, engine.AnswerName(m))
}

func (r *versioningRule) unsupportedVersionError(s *engine.Session, m *message.Msg) {
	d := engine.UnsupportedVersionData(m)
	s.Expect("versioning.unsupported-version-error", len(d.Supported) > 0, spec.Server, m.Event,
		"error -32022 answering %q (line %d) lists no supported versions in data.supported", m.Request.Method, m.Request.Line)
	if len(d.Supported) > 0 {
		r.supported, r.retryFrom, r.awaiting = d.Supported, d.Supported, true
	}
	r.statuses.Expect400(s, m, "versioning.unsupported-version-http-400", "error -32022")
}

func metaCapsOf(meta message.MetaMembers) map[string]json.RawMessage {
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(meta.Get(engine.MetaClientCaps), &caps)
	return caps
}

// checkExtensionIDs holds the keys of capabilities.extensions to the _meta
// key naming rules, with a prefix required.
func checkExtensionIDs(s *engine.Session, m *message.Msg, caps map[string]json.RawMessage, where string) {
	var ext map[string]json.RawMessage
	if json.Unmarshal(caps["extensions"], &ext) != nil {
		return
	}
	for _, id := range slices.Sorted(maps.Keys(ext)) {
		problem := engine.ExtensionIDProblem(id)
		s.Expect("versioning.extension-identifier", problem == "", m.From, m.Event,
			"extension identifier %q in %s %s", id, where, problem)
	}
}

var revisionMention = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

// checkInitializeError: a legacy client that sent initialize has no way
// forward but what the error tells it, so the error names the versions.
func checkInitializeError(s *engine.Session, m *message.Msg) {
	var text string
	if m.Error.Message != nil {
		text = *m.Error.Message
	}
	text += string(m.Error.Data)
	s.Expect("versioning.initialize-error-names-versions", revisionMention.MatchString(text), spec.Server, m.Event,
		"the error answering initialize (line %d) names no protocol version the server supports", m.Request.Line)
}
