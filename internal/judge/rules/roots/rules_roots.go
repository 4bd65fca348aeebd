package roots

import (
	"encoding/json"
	"net/url"
	"sort"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Roots: the server asks for the client's filesystem roots (client/roots).
func init() {
	engine.Register(engine.RuleSpec{
		Sees: append(engine.AskSights("roots/list"), engine.Sees(engine.NotificationMsgs, spec.Client, "notifications/roots/list_changed")),
		Checks: []engine.Check{
			{ID: "roots.capability-declared", Summary: "a client that answers roots/list with a result declared the roots capability"},
			{ID: "roots.list-needs-capability", Summary: "the server asks for roots only of a client that declared the roots capability"},
			{ID: "roots.file-uri", Summary: "every root the client lists has a file:// URI"},
			{ID: "roots.uri-no-traversal", Summary: "no root URI the client lists has . or .. path segments"},
			{ID: "roots.unsupported-error-code", Summary: "a client without the roots capability answers roots/list with error -32601"},
			{ID: "roots.error-code-standard", Summary: "a client with the roots capability that fails roots/list answers with a standard JSON-RPC error code"},
			{ID: "roots.list-changed-notified", Summary: "a client declaring roots.listChanged whose roots changed sends notifications/roots/list_changed"},
		},
		New: func() engine.Rule { return &rootsRule{ClientFeature: engine.NewClientFeature("roots", "roots/list")} },
	})
}

type rootsRule struct {
	engine.ClientFeature

	lastRoots string       // the previous roots/list answer, canonical
	notified  bool         // a list_changed notification came since it
	unnoticed *trace.Event // a changed answer no notification has covered yet
}

type root struct {
	URI  *string `json:"uri"`
	Name string  `json:"name"`
}

func (r *rootsRule) Message(s *engine.Session, m *message.Msg) {
	if m.From == spec.Client && m.Kind == message.KindNotification && m.Method == "notifications/roots/list_changed" {
		r.listChanged(s)
	}
	asks, replies := r.Observe(s, m)
	for _, a := range asks {
		if a.Caps != nil {
			s.Expect("roots.list-needs-capability", a.Caps.Has("roots"), spec.Server, a.Event,
				"the server asked for roots/list, but the client did not declare the roots capability")
		}
	}
	for _, rep := range replies {
		r.reply(s, rep)
	}
}

func (r *rootsRule) reply(s *engine.Session, rep *engine.Reply) {
	if rep.Error != nil {
		checkRootsError(s, rep)
		return
	}
	var res struct {
		Roots []root `json:"roots"`
	}
	if !message.Decode(rep.Result, &res) {
		return
	}
	for _, rt := range res.Roots {
		checkRootURI(s, rt, rep.Event)
	}
	if rep.Ask.Caps.Has("roots.listChanged") {
		r.answered(s, canonicalRoots(res.Roots), rep.Event)
	}
}

func checkRootsError(s *engine.Session, rep *engine.Reply) {
	if rep.Ask.Caps == nil {
		return
	}
	code, _ := rep.Error.IntCode()
	if rep.Ask.Caps.Has("roots") {
		s.Expect("roots.error-code-standard", standardErrorCode(code), spec.Client, rep.Event,
			"the client failed roots/list with error code %s, outside the JSON-RPC range -32768..-32000 (internal errors are -32603)", rep.Error.Code)
		return
	}
	s.Expect("roots.unsupported-error-code", code == -32601, spec.Client, rep.Event,
		"the client, which does not support roots, answered roots/list with error code %s, not -32601 (Method not found)", rep.Error.Code)
}

// standardErrorCode reports whether code lies in the range JSON-RPC reserves
// for its own and implementation-defined server errors.
func standardErrorCode(code int64) bool { return code >= -32768 && code <= -32000 }

func checkRootURI(s *engine.Session, rt root, ev *trace.Event) {
	if rt.URI == nil {
		return
	}
	uri := *rt.URI
	s.Expect("roots.file-uri", strings.HasPrefix(uri, "file://"), spec.Client, ev,
		"root URI %q is not a file:// URI", uri)
	s.Expect("roots.uri-no-traversal", !HasDotSegment(uri), spec.Client, ev,
		"root URI %q has a . or .. path segment: the client exposed it without resolving the path", uri)
}

// HasDotSegment reports whether a URI's path, percent-decoded, has a "." or
// ".." segment, the raw material of a path traversal.
func HasDotSegment(uri string) bool {
	path := uri
	if u, err := url.Parse(uri); err == nil {
		path = u.Path
	}
	for _, seg := range strings.Split(path, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

func canonicalRoots(roots []root) string {
	keys := make([]string, 0, len(roots))
	for _, rt := range roots {
		if rt.URI != nil {
			keys = append(keys, *rt.URI+"\x00"+rt.Name)
		}
	}
	sort.Strings(keys)
	b, _ := json.Marshal(keys)
	return string(b)
}

// answered compares a roots/list answer with the previous one: roots that
// changed between them must be announced, if not before this answer then
// before the session ends (the answer and the notification may race).
func (r *rootsRule) answered(s *engine.Session, roots string, ev *trace.Event) {
	changed := r.lastRoots != "" && roots != r.lastRoots
	r.lastRoots = roots
	switch {
	case changed && r.notified:
		s.Pass("roots.list-changed-notified", spec.Client)
	case changed && r.unnoticed == nil:
		r.unnoticed = ev
	}
	r.notified = false
}

func (r *rootsRule) listChanged(s *engine.Session) {
	r.notified = true
	if r.unnoticed != nil {
		r.unnoticed = nil
		s.Pass("roots.list-changed-notified", spec.Client)
	}
}

func (r *rootsRule) End(s *engine.Session) {
	if r.unnoticed != nil {
		s.Fail("roots.list-changed-notified", spec.Client, r.unnoticed,
			"the client's roots changed (this answer differs from the previous one), but it never sent notifications/roots/list_changed, though it declared roots.listChanged")
	}
}
