package exampleserver

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type rememberArgs struct {
	Name string `json:"name" jsonschema:"the note to add to; created if it does not exist"`
	Line string `json:"line" jsonschema:"the line to add to the note"`
}

type rememberResult struct {
	Note  string `json:"note" jsonschema:"the URI of the note, readable as a resource"`
	Added bool   `json:"added" jsonschema:"false when the note already held the line (nothing changed)"`
	Lines int    `json:"lines" jsonschema:"how many lines the note holds now"`
}

// remember only ever adds a line, and adding a line the note already holds
// changes nothing: so it is truthfully not destructive and idempotent.
func rememberTool() *mcp.Tool {
	return newTool("remember", "Remember a line in a note", behaviour{idempotent: true},
		"Adds a line to an in-memory note, creating the note if needed. A line the note already holds is not added twice, "+
			"and no line is ever changed or removed (use forget to delete a whole note). Subscribers to the note's resource are notified when it changes.",
		schemaFor[rememberArgs](func(p map[string]*jsonschema.Schema) {
			noteNameSchema(p["name"])
			lengthBetween(p["line"], 1, maxEntryLength)
		}))
}

func noteNameSchema(s *jsonschema.Schema) {
	s.Pattern = notePattern
}

func (e *exampleServer) remember(ctx context.Context, req *mcp.CallToolRequest, in rememberArgs) (*mcp.CallToolResult, rememberResult, error) {
	outcome, err := e.notes.add(in.Name, in.Line)
	if err != nil {
		return nil, rememberResult{}, err
	}
	if outcome.Created {
		e.server.AddResource(noteResource(in.Name), e.readNote)
	}
	if outcome.Added {
		e.noteChanged(ctx, in.Name)
	}
	logTo(ctx, req.Session, "info", "notes", map[string]any{"event": "remember", "note": in.Name, "added": outcome.Added, "lines": outcome.Lines})
	out := rememberResult{Note: noteURI(in.Name), Added: outcome.Added, Lines: outcome.Lines}
	return structuredWith(out, noteLink(in.Name)), out, nil
}

type forgetArgs struct {
	Name string `json:"name" jsonschema:"the note to delete"`
}

type forgetResult struct {
	Existed bool `json:"existed" jsonschema:"false when there was no such note (nothing changed)"`
}

// forget deletes a whole note: destructive, but idempotent, since deleting
// a note that is already gone changes nothing more.
func forgetTool() *mcp.Tool {
	return newTool("forget", "Forget a note", behaviour{destructive: true, idempotent: true},
		"Deletes an in-memory note and every line in it. Forgetting a note that does not exist changes nothing.",
		schemaFor[forgetArgs](func(p map[string]*jsonschema.Schema) {
			noteNameSchema(p["name"])
		}))
}

func (e *exampleServer) forget(ctx context.Context, req *mcp.CallToolRequest, in forgetArgs) (*mcp.CallToolResult, forgetResult, error) {
	existed := e.notes.remove(in.Name)
	if existed {
		e.server.RemoveResources(noteURI(in.Name))
		e.noteChanged(ctx, in.Name)
	}
	logTo(ctx, req.Session, "notice", "notes", map[string]any{"event": "forget", "note": in.Name, "existed": existed})
	return nil, forgetResult{Existed: existed}, nil
}

// noteChanged tells the clients subscribed to the note's resource that it
// changed (or is gone).
func (e *exampleServer) noteChanged(ctx context.Context, name string) {
	// The SDK reports no delivery failures here; a subscriber that went
	// away simply misses the update.
	_ = e.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: noteURI(name)})
}

func noteLink(name string) *mcp.ResourceLink {
	return &mcp.ResourceLink{
		URI:      noteURI(name),
		Name:     name,
		Title:    "Note " + name,
		MIMEType: noteMIMEType,
	}
}
