package exampleserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The static resources' URIs. The example: scheme is ours; RFC 3986 asks
// only that a scheme be well formed.
const (
	readmeURI  = "example://readme"
	logoURI    = "example://logo.png"
	weatherURI = "example://weather.json"
)

// Notes are resources too: notes://NAME, one listed resource per note, and
// the template notes://{name} for notes that do not exist yet.
const (
	noteScheme      = "notes://"
	noteTemplate    = noteScheme + "{name}"
	noteMIMEType    = "text/plain"
	noteTemplateArg = "name"
)

func noteURI(name string) string { return noteScheme + name }

// noteName returns the note a notes:// URI names, if the URI is well formed.
func noteName(uri string) (string, bool) {
	name, ok := strings.CutPrefix(uri, noteScheme)
	return name, ok && validNoteName.MatchString(name)
}

// staticResource pairs a resource with its fixed contents.
type staticResource struct {
	resource *mcp.Resource
	contents func() *mcp.ResourceContents
}

func staticResources() []staticResource {
	return []staticResource{
		{
			resource: &mcp.Resource{
				URI: readmeURI, Name: "readme", Title: "About this server", MIMEType: "text/markdown",
				Description: "What the example server offers, in Markdown.",
				Size:        int64(len(readme())),
				Annotations: &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, Priority: 0.8},
			},
			contents: func() *mcp.ResourceContents { return &mcp.ResourceContents{Text: readme()} },
		},
		{
			resource: &mcp.Resource{
				URI: logoURI, Name: "logo.png", Title: "Logo", MIMEType: logoMIMEType,
				Description: "A 16x16 PNG check mark: a binary (blob) resource.",
				Size:        int64(len(logoPNG())),
				Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 0.2},
			},
			contents: func() *mcp.ResourceContents { return &mcp.ResourceContents{Blob: logoPNG()} },
		},
		{
			resource: &mcp.Resource{
				URI: weatherURI, Name: "weather.json", Title: "Weather table", MIMEType: "application/json",
				Description: "The fixed table lookup_weather answers from.",
				Size:        int64(len(weatherJSON())),
			},
			contents: func() *mcp.ResourceContents { return &mcp.ResourceContents{Text: weatherJSON()} },
		},
	}
}

func readme() string {
	return "# " + serverTitle + "\n\n```\n" + Description + "```\n"
}

func weatherJSON() string {
	raw, err := json.MarshalIndent(weatherTable, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(raw) + "\n"
}

func (e *exampleServer) addResources() {
	for _, r := range staticResources() {
		e.server.AddResource(r.resource, readStatic(r.contents))
	}
	e.server.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: noteTemplate,
		Name:        "note",
		Title:       "Note",
		Description: "An in-memory note written by the remember tool; its name completes.",
		MIMEType:    noteMIMEType,
	}, e.readNote)
	for _, name := range e.notes.names() {
		e.server.AddResource(noteResource(name), e.readNote)
	}
}

func noteResource(name string) *mcp.Resource {
	return &mcp.Resource{
		URI:         noteURI(name),
		Name:        name,
		Title:       "Note " + name,
		Description: "A note written by the remember tool.",
		MIMEType:    noteMIMEType,
	}
}

func readStatic(contents func() *mcp.ResourceContents) mcp.ResourceHandler {
	return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		c := contents()
		c.URI = req.Params.URI
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
	}
}

func (e *exampleServer) readNote(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, ok := noteName(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	text, ok := e.notes.text(name)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: noteMIMEType, Text: text}}}, nil
}

// subscribe accepts the URIs this server can serve: the static resources
// and any well-formed note, even one not written yet, so that a client can
// watch a note before it exists.
func (e *exampleServer) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if _, ok := noteName(uri); ok || isStaticURI(uri) {
		return nil
	}
	return &jsonrpc.Error{
		Code:    jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("cannot subscribe to %q: it is neither a resource of this server nor a notes://NAME URI", uri),
	}
}

// unsubscribe has nothing to undo: the SDK keeps the subscription table.
func (e *exampleServer) unsubscribe(context.Context, *mcp.UnsubscribeRequest) error { return nil }

func isStaticURI(uri string) bool {
	return uri == readmeURI || uri == logoURI || uri == weatherURI
}
