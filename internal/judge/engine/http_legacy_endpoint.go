package engine

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// A recorder writes every SSE frame that carries data as a message event,
// and so the `endpoint` event of HTTP with SSE, whose data is a URI, comes
// as a message that is not JSON; so does the text a server puts in the
// body of its answer to a POST ("Accepted", say), which this transport does
// not make a channel for messages. Under 2024-11-05, once a server named
// its endpoint on an SSE connection, both are transport bytes and the judge
// hands them to the rules as http events. Under any other revision, or
// over HTTP that is not HTTP with SSE, they stay messages and the message
// clauses judge them.

// legacyTransportFrame reports whether ev holds transport bytes of HTTP
// with SSE rather than a message.
func (r *run) legacyTransportFrame(ev *trace.Event) bool {
	if r.revision != LegacyRevision || ev.Transport != trace.StreamableHTTP || ev.Direction != trace.ServerToClient {
		return false
	}
	if IsEndpointFrame(ev) {
		r.legacySSE = true
		return true
	}
	return r.legacySSE && ev.SSE == nil && (ev.Raw != nil || ev.RawBase64 != "")
}

func IsEndpointFrame(ev *trace.Event) bool { return ev.SSE != nil && ev.SSE.Event == "endpoint" }

// FrameData is the data of the frame ev records, as text.
func FrameData(ev *trace.Event) string {
	if ev.Raw != nil {
		return *ev.Raw
	}
	return string(ev.Payload)
}

// ExchangeKey names the exchange an event belongs to.
func ExchangeKey(ev *trace.Event) string { return strconv.FormatInt(ev.Exchange, 10) }

// LegacyTarget is an endpoint the server named, as the path (and query)
// a request to it carries.
type LegacyTarget struct {
	path, query string
}

// EndpointTarget resolves an endpoint event's data against the GET that
// opened the connection; err says why the data is not a URI to POST to.
func EndpointTarget(get *trace.Event, data string) (LegacyTarget, string) {
	if data == "" {
		return LegacyTarget{}, "it is empty"
	}
	if i := strings.IndexFunc(data, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }); i >= 0 {
		return LegacyTarget{}, "a URI holds no white space or control characters"
	}
	ref, err := url.Parse(data)
	if err != nil {
		return LegacyTarget{}, "it does not parse as a URI reference"
	}
	if ref.Scheme != "" && ref.Scheme != "http" && ref.Scheme != "https" {
		return LegacyTarget{}, "its scheme " + strconv.Quote(ref.Scheme) + " is not http or https"
	}
	base := &url.URL{Scheme: "http", Host: "server", Path: get.Path}
	if p, q, ok := strings.Cut(get.Path, "?"); ok {
		base.Path, base.RawQuery = p, q
	}
	to := base.ResolveReference(ref)
	return LegacyTarget{path: to.Path, query: to.RawQuery}, ""
}

// Matches reports whether a request path is this endpoint. A recorder that
// keeps the query in the path (mcpverdict's does not) has it compared too.
func (t LegacyTarget) Matches(path string) bool {
	if p, q, ok := strings.Cut(path, "?"); ok {
		return p == t.path && q == t.query
	}
	return path == t.path
}

// String names the endpoint by its path alone: the query of an endpoint
// usually carries the connection's session id.
func (t LegacyTarget) String() string { return strconv.Quote(Clip([]byte(t.path))) }

// LegacyRevision is the one revision whose HTTP transport is HTTP with SSE.
const LegacyRevision spec.Revision = "2024-11-05"

// Clip shortens bytes for a finding.
func Clip(b []byte) string {
	const most = 80
	if len(b) > most {
		return string(b[:most]) + "..."
	}
	return string(b)
}
