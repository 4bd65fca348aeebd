package resources

import (
	"bytes"
	"encoding/json"
	"regexp"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/listing"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Resources: the URIs the server lists and returns, how it answers reads of
// resources it does not have and of strings that are not URIs, and the
// encoding of the binary contents it returns.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: append(engine.FeatureSights("resources"), engine.Sees(engine.NotificationMsgs, spec.Server, "notifications/resources/updated")),
		Checks: []engine.Check{
			{ID: "resources.capability-declared", Summary: "a server that answers resources/* requests with results declared the resources capability"},
			{ID: "resources.list-answered", Summary: "a server that declared resources answers resources/list with a resources array, not method-not-found"},
			{ID: "resources.list-changed-notified", Summary: "a server that declared resources.listChanged announces a changed resource list with notifications/resources/list_changed"},
			{ID: "resources.uri-syntax", Summary: "every resource URI the server lists or returns is an RFC 3986 URI"},
			{ID: "resources.not-found-code", Summary: "resources/read of a resource the server does not have is answered with the revision's resource-not-found error code"},
			{ID: "resources.no-empty-contents", Summary: "resources/read of a resource the server does not have is not answered with empty contents"},
			{ID: "resources.uri-validated", Summary: "resources/read of a string that is not a URI is not answered with contents"},
			{ID: "resources.blob-base64", Summary: "every blob of resource contents is base64"},
		},
		New: newResourcesRule,
	})
}

// Bounds on what a session keeps of the resources a server named.
const (
	maxKnownURIs = 1 << 16
	maxTemplates = 256
)

type resourcesRule struct {
	engine.BaseRule
	listing.Feature
	templates *listing.PagedList
	// known holds every URI the server listed or mentioned (in contents,
	// resource links, embedded resources and update notifications).
	known map[string]bool
	// readable holds URIs of reads already found to be URIs: a client
	// reads the same resources again and again, and uriProblem matches a
	// regexp.
	readable map[string]bool
	patterns []*regexp.Regexp
	// listedWhole and templatesWhole are set once a whole listing of each
	// was seen; tooMany once a bound was reached. Only with both listings
	// whole and nothing dropped is a URI the server never named one it
	// does not have.
	listedWhole, templatesWhole, tooMany bool
	// memos holds the last read of each URI read.
	memos map[string]readMemo
}

func newResourcesRule() engine.Rule {
	r := &resourcesRule{
		Feature: listing.NewFeature("resources", "uri", listing.FeatureChecks{
			Declared: "resources.capability-declared", Answered: "resources.list-answered", Changed: "resources.list-changed-notified",
		}),
		templates: listing.NewPagedList("resourceTemplates"),
		known:     map[string]bool{},
		readable:  map[string]bool{},
	}
	r.OnPage = r.listed
	return r
}

func (r *resourcesRule) Message(s *engine.Session, m *message.Msg) {
	if r.Observe(s, m) {
		return
	}
	if m.From != spec.Server {
		return
	}
	if m.Kind == message.KindNotification && m.Method == "notifications/resources/updated" {
		r.mention(ParamsURI(&m.ParamsMembers, m.Params))
	}
	if m.Request == nil {
		return
	}
	switch m.Request.Method {
	case "resources/templates/list":
		r.templatesListed(m)
	case "resources/read":
		r.read(s, m)
	case "tools/call", "prompts/get":
		r.embedded(s, m)
	}
}

func (r *resourcesRule) End(s *engine.Session) { r.Finish(s) }

func (r *resourcesRule) listed(s *engine.Session, m *message.Msg, p listing.ListPage) {
	for _, uri := range r.PageKeys(p) {
		judgeURISyntax(s, m, uri)
		r.mention(uri)
	}
	r.listedWhole = r.listedWhole || p.Complete
}

// templatesListed keeps a pattern for each listed template; a server
// without templates may answer method-not-found.
func (r *resourcesRule) templatesListed(m *message.Msg) {
	if code, _ := m.Error.IntCode(); m.Kind == message.KindError && code == listing.MethodNotFound {
		r.templatesWhole = true
		return
	}
	if m.Kind != message.KindResult {
		return
	}
	p, ok := r.templates.Add(m)
	if !ok {
		return
	}
	for _, tmpl := range listing.ItemKeys(p.Items, "uriTemplate") {
		if len(r.patterns) >= maxTemplates {
			r.tooMany = true
			return
		}
		r.patterns = append(r.patterns, engine.TemplatePattern(tmpl))
	}
	r.templatesWhole = r.templatesWhole || p.Complete
}

func (r *resourcesRule) mention(uri string) {
	if len(r.known) >= maxKnownURIs {
		r.tooMany = true
		return
	}
	r.known[uri] = true
}

// absent reports whether the server shows it does not have uri: it listed
// all its resources and templates, and neither names it.
func (r *resourcesRule) absent(uri string) bool {
	if !r.listedWhole || !r.templatesWhole || r.tooMany || r.known[uri] {
		return false
	}
	for _, p := range r.patterns {
		if p.MatchString(uri) {
			return false
		}
	}
	return true
}

// embedded notes the resources a tool result or prompt names and judges
// the blobs it embeds.
func (r *resourcesRule) embedded(s *engine.Session, m *message.Msg) {
	if !MayNameResource(m.Result) {
		return // most tool results: no block to look at
	}
	for _, b := range message.ResultContent(m) {
		switch {
		case b.Type == "resource_link" && b.URI.Set:
			r.mention(b.URI.Val)
		case b.Type == "resource" && b.Resource != nil:
			judgeBlob(s, m, b.Resource)
			if b.Resource.URI.Set {
				r.mention(b.Resource.URI.Val)
			}
		}
	}
}

// readProblem is uriProblem for the URI of a read, remembered when there is
// none.
func (r *resourcesRule) readProblem(uri string) string {
	if r.readable[uri] {
		return ""
	}
	problem := engine.URIProblem(uri)
	if problem == "" && len(r.readable) < maxKnownURIs {
		r.readable[uri] = true
	}
	return problem
}

// MayNameResource reports whether a result's text could hold a block whose
// type is "resource" or "resource_link": only a \u escape could spell the
// word without its letters, as the short escapes stand for no letter.
func MayNameResource(result []byte) bool {
	return bytes.Contains(result, []byte("resource")) || bytes.Contains(result, []byte(`\u`))
}

func judgeURISyntax(s *engine.Session, m *message.Msg, uri string) {
	problem := engine.URIProblem(uri)
	if problem == "" {
		s.Pass("resources.uri-syntax", spec.Server)
		return
	}
	s.Fail("resources.uri-syntax", spec.Server, m.Event,
		"%q returned resource URI %s, which is not an RFC 3986 URI: %s", m.Request.Method, message.Preview(uri), problem)
}

func judgeBlob(s *engine.Session, m *message.Msg, c *message.ResourceContents) {
	if !c.Blob.Set {
		return
	}
	s.Expect("resources.blob-base64", message.IsBase64(c.Blob.Val), spec.Server, m.Event,
		"%q returned a blob %s that is not base64", m.Request.Method, message.Preview(c.Blob.Val))
}

// readContents is a resources/read result.
type readContents struct {
	ResultType string                     `json:"resultType"`
	Contents   []message.ResourceContents `json:"contents"`
}

// URIParams are the params of a request that names a resource.
type URIParams struct {
	URI string `json:"uri"`
}

// uriFields is the member uriParams decodes.
var uriFields = []string{"uri"}

// ParamsURI returns the uri member of request params, whose members f may
// hold, as decoding them into uriParams would.
func ParamsURI(f *message.ObjectFields, params json.RawMessage) string {
	p, _ := message.ReadOrDecode(f, params, readURIParams)
	return p.URI
}

func readURIParams(f *message.ObjectFields, params []byte) (p URIParams, out message.ReadOutcome) {
	out = message.ReadFields(f, params, uriFields, func(_ int, value []byte) message.ReadOutcome {
		return message.SetString(&p.URI, value)
	})
	return p, out
}

// readContentsFields are the members readContents decodes, in field order.
var readContentsFields = []string{"resultType", "contents"}

// ReadReadContents reads a resources/read result, whose members f may
// hold, as Decode into readContents would, its contents appended to dst.
func ReadReadContents(f *message.ObjectFields, result []byte, dst []message.ResourceContents) (res readContents, out message.ReadOutcome) {
	res.Contents = dst
	seen := false
	out = message.ReadFields(f, result, readContentsFields, func(field int, value []byte) message.ReadOutcome {
		if field == 0 {
			return message.SetString(&res.ResultType, value)
		}
		if seen {
			return message.ReadUnsure // the decoder reuses the first one's elements
		}
		seen = true
		return message.ReadObjects(f.Checked(value), message.ResourceContentsFields, func() { res.Contents = append(res.Contents, message.ResourceContents{}) },
			func(field int, value []byte) message.ReadOutcome {
				return res.Contents[len(res.Contents)-1].Set(field, value)
			})
	})
	return res, out
}

// ResourcesRead returns m's result as Decode into readContents gives it;
// the contents it reads are appended to buf.
func ResourcesRead(m *message.Msg, buf []message.ResourceContents) (readContents, bool) {
	res, out := ReadReadContents(&m.ResultMembers, m.Result, buf)
	return message.OrDecoded(m.Result, res, out)
}
