package judge

import (
	"bytes"
	"encoding/json"
	"regexp"

	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Resources: the URIs the server lists and returns, how it answers reads of
// resources it does not have and of strings that are not URIs, and the
// encoding of the binary contents it returns.
func init() {
	register(RuleSpec{
		Sees: append(featureSights("resources"), sees(notificationMsgs, spec.Server, "notifications/resources/updated")),
		Checks: []Check{
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
	BaseRule
	feature
	templates *pagedList
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

func newResourcesRule() Rule {
	r := &resourcesRule{
		feature: newFeature("resources", "uri", featureChecks{
			declared: "resources.capability-declared", answered: "resources.list-answered", changed: "resources.list-changed-notified",
		}),
		templates: newPagedList("resourceTemplates"),
		known:     map[string]bool{},
		readable:  map[string]bool{},
	}
	r.onPage = r.listed
	return r
}

func (r *resourcesRule) Message(s *Session, m *Msg) {
	if r.observe(s, m) {
		return
	}
	if m.From != spec.Server {
		return
	}
	if m.Kind == KindNotification && m.Method == "notifications/resources/updated" {
		r.mention(paramsURI(&m.params, m.Params))
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

func (r *resourcesRule) End(s *Session) { r.end(s) }

func (r *resourcesRule) listed(s *Session, m *Msg, p listPage) {
	for _, uri := range r.pageKeys(p) {
		judgeURISyntax(s, m, uri)
		r.mention(uri)
	}
	r.listedWhole = r.listedWhole || p.complete
}

// templatesListed keeps a pattern for each listed template; a server
// without templates may answer method-not-found.
func (r *resourcesRule) templatesListed(m *Msg) {
	if code, _ := m.Error.IntCode(); m.Kind == KindError && code == methodNotFound {
		r.templatesWhole = true
		return
	}
	if m.Kind != KindResult {
		return
	}
	p, ok := r.templates.add(m)
	if !ok {
		return
	}
	for _, tmpl := range itemKeys(p.items, "uriTemplate") {
		if len(r.patterns) >= maxTemplates {
			r.tooMany = true
			return
		}
		r.patterns = append(r.patterns, templatePattern(tmpl))
	}
	r.templatesWhole = r.templatesWhole || p.complete
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
func (r *resourcesRule) embedded(s *Session, m *Msg) {
	if !mayNameResource(m.Result) {
		return // most tool results: no block to look at
	}
	for _, b := range resultContent(m) {
		switch {
		case b.Type == "resource_link" && b.URI.set:
			r.mention(b.URI.val)
		case b.Type == "resource" && b.Resource != nil:
			judgeBlob(s, m, b.Resource)
			if b.Resource.URI.set {
				r.mention(b.Resource.URI.val)
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
	problem := uriProblem(uri)
	if problem == "" && len(r.readable) < maxKnownURIs {
		r.readable[uri] = true
	}
	return problem
}

// mayNameResource reports whether a result's text could hold a block whose
// type is "resource" or "resource_link": only a \u escape could spell the
// word without its letters, as the short escapes stand for no letter.
func mayNameResource(result []byte) bool {
	return bytes.Contains(result, []byte("resource")) || bytes.Contains(result, []byte(`\u`))
}

func judgeURISyntax(s *Session, m *Msg, uri string) {
	problem := uriProblem(uri)
	if problem == "" {
		s.Pass("resources.uri-syntax", spec.Server)
		return
	}
	s.Fail("resources.uri-syntax", spec.Server, m.Event,
		"%q returned resource URI %s, which is not an RFC 3986 URI: %s", m.Request.Method, preview(uri), problem)
}

func judgeBlob(s *Session, m *Msg, c *resourceContents) {
	if !c.Blob.set {
		return
	}
	s.Expect("resources.blob-base64", isBase64(c.Blob.val), spec.Server, m.Event,
		"%q returned a blob %s that is not base64", m.Request.Method, preview(c.Blob.val))
}

// readContents is a resources/read result.
type readContents struct {
	ResultType string             `json:"resultType"`
	Contents   []resourceContents `json:"contents"`
}

// uriParams are the params of a request that names a resource.
type uriParams struct {
	URI string `json:"uri"`
}

// uriFields is the member uriParams decodes.
var uriFields = []string{"uri"}

// paramsURI returns the uri member of request params, whose members f may
// hold, as decoding them into uriParams would.
func paramsURI(f *objectFields, params json.RawMessage) string {
	p, _ := readOrDecode(f, params, readURIParams)
	return p.URI
}

func readURIParams(f *objectFields, params []byte) (p uriParams, out readOutcome) {
	out = readFields(f, params, uriFields, func(_ int, value []byte) readOutcome {
		return setString(&p.URI, value)
	})
	return p, out
}

// readContentsFields are the members readContents decodes, in field order.
var readContentsFields = []string{"resultType", "contents"}

// readReadContents reads a resources/read result, whose members f may
// hold, as Decode into readContents would, its contents appended to dst.
func readReadContents(f *objectFields, result []byte, dst []resourceContents) (res readContents, out readOutcome) {
	res.Contents = dst
	seen := false
	out = readFields(f, result, readContentsFields, func(field int, value []byte) readOutcome {
		if field == 0 {
			return setString(&res.ResultType, value)
		}
		if seen {
			return readUnsure // the decoder reuses the first one's elements
		}
		seen = true
		return readObjects(f.checked(value), resourceContentsFields, func() { res.Contents = append(res.Contents, resourceContents{}) },
			func(field int, value []byte) readOutcome { return res.Contents[len(res.Contents)-1].set(field, value) })
	})
	return res, out
}

// resourcesRead returns m's result as Decode into readContents gives it;
// the contents it reads are appended to buf.
func resourcesRead(m *Msg, buf []resourceContents) (readContents, bool) {
	res, out := readReadContents(&m.result, m.Result, buf)
	return orDecoded(m.Result, res, out)
}
