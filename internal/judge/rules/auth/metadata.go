package auth

import (
	"encoding/json"
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// maxOpenExchanges bounds the exchanges the authorization rules remember;
// an older one has long been answered.
const maxOpenExchanges = 4096

// metadataFetches follows the exchanges that GET protected resource
// metadata, over the whole trace: the document describes the server, not
// one session. They carry no MCP message, so the engine hands them to this
// area alone (takeMetadataEvent), and no transport or JSON-RPC rule judges
// a metadata document as a message.
type metadataFetches struct {
	exchanges map[int64]*trace.Event
	status    map[int64]int
	// fetched is set once a fetch got an answer, served once one was a
	// 200 with a document.
	fetched, served bool
	last            *trace.Event
	// ended is set once the trace's finding on the fetches is reported.
	ended bool
	// named is the path of the metadata URL the last 401 named, until the
	// client's next fetch.
	named string
}

var metadataFact = engine.NewTraceFact(func() *metadataFetches { return &metadataFetches{} })

func init() { engine.RegisterTaker(takeMetadataEvent) }

// takeMetadataEvent takes the events of a metadata fetch and reports
// whether ev was one.
func takeMetadataEvent(s *engine.Session, ev *trace.Event) bool {
	if ev.Exchange == 0 {
		return false
	}
	return metadataFact.Of(s).take(s, ev)
}

func (f *metadataFetches) take(s *engine.Session, ev *trace.Event) bool {
	request := isHTTPRequest(ev)
	if !request && len(f.exchanges) == 0 {
		return false
	}
	if request && (isMetadataPath(ev.Path) || f.named != "" && pathOf(ev.Path) == f.named) {
		f.judgeFetchPath(s, ev)
		if f.exchanges == nil || len(f.exchanges) >= maxOpenExchanges {
			f.exchanges, f.status = map[int64]*trace.Event{}, map[int64]int{}
		}
		f.exchanges[ev.Exchange] = ev
		return true
	}
	req, ok := f.exchanges[ev.Exchange]
	if !ok {
		return false
	}
	switch {
	case ev.Kind == trace.KindHTTP && ev.Status != 0:
		f.fetched, f.last = true, ev
		f.status[ev.Exchange] = ev.Status
		f.served = f.served || ev.Status == 200
	case ev.Kind == trace.KindMessage && ev.Direction == trace.ServerToClient:
		if f.status[ev.Exchange] == 200 {
			judgeMetadataDocument(s, req, ev)
		}
	}
	return true
}

// judgeFetchPath holds a client that was named the metadata's URL to
// fetching it there, rather than at a well-known URI of its own choosing.
func (f *metadataFetches) judgeFetchPath(s *engine.Session, ev *trace.Event) {
	if f.named == "" {
		return
	}
	s.Expect("auth.client-fetches-named-metadata", pathOf(ev.Path) == f.named, spec.Client, ev,
		"the client fetched the protected resource metadata at %s, not at %s, which the 401 challenge named",
		message.QuoteJSON(pathOf(ev.Path)), message.QuoteJSON(f.named))
	f.named = ""
}

// end fails a trace whose every metadata fetch went unanswered by a
// document, once.
func (f *metadataFetches) end(s *engine.Session) {
	if f.ended {
		return
	}
	f.ended = true
	if f.fetched && !f.served {
		s.Fail("auth.metadata-document", spec.Server, f.last,
			"no fetch of the protected resource metadata was answered 200 (the last got %d)", f.last.Status)
	}
}

// protectedResourceMetadata holds the RFC 9728 members the checks need.
type protectedResourceMetadata struct {
	Resource             *string  `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

func judgeMetadataDocument(s *engine.Session, req, ev *trace.Event) {
	var doc protectedResourceMetadata
	problem := ""
	switch err := json.Unmarshal(ev.Payload, &doc); {
	case ev.Payload == nil:
		problem = "is not JSON"
	case err != nil:
		problem = "is not a JSON object with a string resource and an array of authorization_servers URLs"
	case doc.Resource == nil || *doc.Resource == "":
		problem = "has no resource"
	case len(doc.AuthorizationServers) == 0:
		problem = "lists no authorization_servers"
	}
	s.Expect("auth.metadata-document", problem == "", spec.Server, ev,
		"the protected resource metadata served at %s %s", message.QuoteJSON(req.Path), problem)
	if doc.ScopesSupported != nil {
		s.Expect("auth.no-offline-access-scope", !slices.Contains(doc.ScopesSupported, "offline_access"), spec.Server, ev,
			"the protected resource metadata served at %s lists offline_access in scopes_supported", message.QuoteJSON(req.Path))
	}
}
