package auth

import (
	"net/http"
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Authorization as a resource server shows it on the wire: the 401 that
// asks for a token and names the protected resource metadata, the 403 that
// asks for more scope, and bearer tokens carried in the Authorization header
// only. The recording keeps the presence of a credential, never its value,
// so no check here can tell a valid token from another.
var authChecks = []engine.Check{
	{ID: "auth.challenge-resource-metadata", Summary: "a 401 carries a WWW-Authenticate challenge naming the protected resource metadata (resource_metadata); from 2025-11-25, or the metadata is served at its well-known URI"},
	{ID: "auth.challenge-scope", Summary: "from 2025-11-25, a 401 carries a Bearer challenge with a scope parameter naming the scopes the request needs"},
	{ID: "auth.metadata-document", Summary: "the protected resource metadata is served, a JSON object with resource and at least one authorization server"},
	{ID: "auth.client-answers-challenge", Summary: "after a 401 to a request without an Authorization header, the client's next request carries one"},
	{ID: "auth.insufficient-scope-names-scope", Summary: "from 2025-11-25, a 403 insufficient_scope challenge carries a scope parameter naming the scopes the request needs"},
	{ID: "auth.invalid-token-401", Summary: "a request with a made-up bearer token (the invalid-token probe's) is refused with 401 Unauthorized"},
	{ID: "auth.invalid-token-challenge", Summary: "the 401 refusing a made-up bearer token carries a WWW-Authenticate Bearer challenge (OAuth 2.1 section 5.3)"},
	{ID: "auth.no-offline-access-scope", Summary: "a challenge's scope parameter and the protected resource metadata's scopes_supported do not name offline_access"},
	{ID: "auth.client-fetches-named-metadata", Summary: "a client named the protected resource metadata's URL in a 401 challenge fetches it there, not at a well-known URI"},
	{ID: "auth.insufficient-scope-403", Summary: "a request with a token refused with 403 carries a Bearer challenge with error=\"insufficient_scope\""},
	{ID: "auth.token-not-in-query", Summary: "a client sends no access token in the URI query string"},
	{ID: "auth.query-token-refused", Summary: "a server that requires authorization refuses a request whose token is in the URI query string with 401, as one without credentials"},
	{ID: "auth.header-every-request", Summary: "once a client sends an Authorization header, every later HTTP request carries it"},
	{ID: "auth.unauthenticated-refused", Summary: "a server that answered a request without credentials 401 answers no other such request with data"},
}

// firstChallengeRevision is the first revision whose 401 must name the
// protected resource metadata.
const firstChallengeRevision spec.Revision = "2025-06-18"

// firstEitherRevision is the first revision that lets a server name its
// metadata either in the challenge or at the well-known URI.
const firstEitherRevision spec.Revision = "2025-11-25"

func init() {
	// The rule reads HTTP events alone: it sees no message.
	engine.Register(engine.RuleSpec{Checks: authChecks, New: func() engine.Rule { return &authRule{} },
		Sees: []engine.Sight{}})
}

// authRule watches a session's HTTP exchanges for what authorization
// shows: the requests' credentials and the statuses and challenges that
// answer them.
type authRule struct {
	engine.BaseRule
	requests map[int64]*trace.Event
	// challenged is set once a request without credentials got 401: the
	// server requires authorization.
	challenged bool
	// sentAuth is set once the client sent an Authorization header.
	sentAuth bool
	// unproven are 2xx answers to requests without credentials, and
	// queryServed 2xx answers to a token sent in the query only; each is
	// a finding once the server shows it requires authorization.
	unproven, queryServed []*trace.Event
	queryRefused          bool
	// bareChallenges are 401s naming no resource_metadata, which a
	// well-known document may still make good (from 2025-11-25).
	bareChallenges []*trace.Event
	// owed is a 401 to a request without an Authorization header, which
	// the client's next request answers with one.
	owed *trace.Event
}

func (r *authRule) HTTP(s *engine.Session, ev *trace.Event) {
	if ev.Transport != trace.StreamableHTTP {
		return
	}
	switch {
	case isHTTPRequest(ev):
		r.request(s, ev)
	case ev.Status != 0:
		if req := r.requests[ev.Exchange]; req != nil {
			delete(r.requests, ev.Exchange)
			r.response(s, req, ev)
		}
	}
}

func (r *authRule) request(s *engine.Session, ev *trace.Event) {
	if r.requests == nil || len(r.requests) >= maxOpenExchanges {
		r.requests = map[int64]*trace.Event{}
	}
	r.requests[ev.Exchange] = ev
	_, header := ev.Headers["authorization"]
	if r.owed != nil {
		s.Expect("auth.client-answers-challenge", header, spec.Client, ev,
			"HTTP %s has no Authorization header, though the server answered the request before it (line %d) 401 Unauthorized", ev.Method, r.owed.Line)
		r.owed = nil
	}
	inQuery := queryToken(ev.Path)
	if header || inQuery {
		s.Expect("auth.token-not-in-query", !inQuery, spec.Client, ev,
			"HTTP %s %s carries an access token in its query string", ev.Method, message.QuoteJSON(ev.Path))
	}
	if r.sentAuth {
		s.Expect("auth.header-every-request", header, spec.Client, ev,
			"HTTP %s has no Authorization header, though the client sent one on an earlier request", ev.Method)
	}
	r.sentAuth = r.sentAuth || header
}

func (r *authRule) response(s *engine.Session, req, resp *trace.Event) {
	credential, header := req.Headers["authorization"]
	if credential == trace.InvalidTokenCredential {
		judgeInvalidToken(s, resp)
		return
	}
	inQuery := queryToken(req.Path)
	ok := resp.Status >= 200 && resp.Status < 300
	if resp.Status == 401 || resp.Status == 403 {
		judgeOfflineAccess(s, resp)
	}
	switch {
	case resp.Status == 401:
		metadataFact.Of(s).named = challengeMetadataPath(resp.Headers["www-authenticate"])
		r.challenged = r.challenged || !header && !inQuery
		r.queryRefused = r.queryRefused || inQuery && !header
		if !header {
			r.owed = resp
		}
		r.judgeChallenge(s, resp)
	case resp.Status == 403 && header:
		r.judgeScopeChallenge(s, resp)
	case inQuery && !header && resp.Status != 403:
		// Any answer but a refusal means the token in the query was
		// taken: a server that ignores it would have answered 401.
		r.queryServed = keep(r.queryServed, resp)
	case ok && !header:
		r.unproven = keep(r.unproven, resp)
	}
}

func (r *authRule) judgeChallenge(s *engine.Session, resp *trace.Event) {
	if s.Revision.Before(firstChallengeRevision) {
		return
	}
	challenge := resp.Headers["www-authenticate"]
	if s.Revision.AtLeast(firstEitherRevision) {
		s.Expect("auth.challenge-scope", challengeNamesScope(challenge), spec.Server, resp,
			"401 Unauthorized %s, with no scope parameter naming the scopes the request needs", describeChallenge(challenge))
	}
	named := challengeNamesMetadata(challenge)
	switch {
	case named:
		s.Pass("auth.challenge-resource-metadata", spec.Server)
	case s.Revision.AtLeast(firstEitherRevision):
		r.bareChallenges = append(r.bareChallenges, resp)
	default:
		s.Fail("auth.challenge-resource-metadata", spec.Server, resp,
			"401 Unauthorized %s", describeChallenge(challenge))
	}
}

func (r *authRule) judgeScopeChallenge(s *engine.Session, resp *trace.Event) {
	if s.Revision.Before(firstEitherRevision) {
		return
	}
	challenge := resp.Headers["www-authenticate"]
	insufficient := challengeNamesInsufficientScope(challenge)
	s.Expect("auth.insufficient-scope-403", insufficient, spec.Server, resp,
		"403 Forbidden to a request with a token %s, not a Bearer challenge with error=\"insufficient_scope\"", describeChallenge(challenge))
	if insufficient {
		s.Expect("auth.insufficient-scope-names-scope", challengeNamesScope(challenge), spec.Server, resp,
			"403 Forbidden %s, with no scope parameter naming the scopes the request needs", describeChallenge(challenge))
	}
}

func (r *authRule) End(s *engine.Session) {
	r.endChallenges(s)
	metadataFact.Of(s).end(s)
	if r.challenged {
		for _, resp := range r.unproven {
			s.Fail("auth.unauthenticated-refused", spec.Server, resp,
				"a request without credentials was answered %d, though the server answered another 401 Unauthorized", resp.Status)
		}
		if len(r.unproven) == 0 {
			s.Pass("auth.unauthenticated-refused", spec.Server)
		}
	}
	if r.challenged || r.sentAuth {
		for _, resp := range r.queryServed {
			s.Fail("auth.query-token-refused", spec.Server, resp,
				"a request whose token was in the query string, with no Authorization header, was answered %d, not refused with 401 Unauthorized", resp.Status)
		}
		if len(r.queryServed) == 0 && r.queryRefused {
			s.Pass("auth.query-token-refused", spec.Server)
		}
	}
}

// endChallenges judges the 401s that named no metadata: from 2025-11-25 a
// document served at the well-known URI names it instead.
func (r *authRule) endChallenges(s *engine.Session) {
	for _, resp := range r.bareChallenges {
		s.Expect("auth.challenge-resource-metadata", metadataFact.Of(s).served, spec.Server, resp,
			"401 Unauthorized %s, and no protected resource metadata was served at its well-known URI", describeChallenge(resp.Headers["www-authenticate"]))
	}
}

// judgeInvalidToken judges the answer to a token no authorization server
// issued: the one request whose token the recording shows, since the
// invalid-token probe's is public.
func judgeInvalidToken(s *engine.Session, resp *trace.Event) {
	if resp.Status != 401 {
		s.Fail("auth.invalid-token-401", spec.Server, resp,
			"a request with a made-up bearer token was answered %d, not refused with 401 Unauthorized", resp.Status)
		return
	}
	s.Pass("auth.invalid-token-401", spec.Server)
	challenge := resp.Headers["www-authenticate"]
	s.Expect("auth.invalid-token-challenge", bearerScheme.MatchString(challenge), spec.Server, resp,
		"401 Unauthorized to a made-up bearer token %s, not a Bearer challenge", describeChallenge(challenge))
}

// judgeOfflineAccess holds a challenge's scopes to leaving out
// offline_access: refresh tokens are no resource requirement.
func judgeOfflineAccess(s *engine.Session, resp *trace.Event) {
	scopes, ok := challengeScopes(resp.Headers["www-authenticate"])
	if !ok {
		return
	}
	s.Expect("auth.no-offline-access-scope", !slices.Contains(scopes, "offline_access"), spec.Server, resp,
		"%d %s %s, whose scope names offline_access", resp.Status, http.StatusText(resp.Status), describeChallenge(resp.Headers["www-authenticate"]))
}

// maxKept bounds the answers a session keeps for a finding it may only make
// at its end: every answer of a server without authorization is one.
const maxKept = 64

func keep(evs []*trace.Event, ev *trace.Event) []*trace.Event {
	if len(evs) >= maxKept {
		return evs
	}
	return append(evs, ev)
}
