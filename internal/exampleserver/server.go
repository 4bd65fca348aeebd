// Package exampleserver is the small but complete MCP server built into
// mcpverdict: the default target of `mcpverdict check` and a demo of every
// server feature of the specification (tools with annotations, input and
// output schemas, progress and cancellation; static, binary and templated
// resources with subscriptions and list changes; prompts; completion;
// logging; pagination; instructions).
//
// Its answers are deterministic: the same requests get byte-identical
// results on every run, with no clock readings or random identifiers in any
// content. Only transport metadata (the HTTP session id) is random, because
// the transport specification asks for it.
package exampleserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The server's identity. The version is fixed rather than the build's, so
// that a recorded session does not change when mcpverdict is rebuilt.
const (
	serverName    = "mcpverdict-example"
	serverTitle   = "mcpverdict example server"
	serverVersion = "1.0.0"
)

// pageSize is deliberately tiny so that every list with more than two items
// (tools, resources, prompts) spans several pages and a client must follow
// nextCursor to see it all.
const pageSize = 2

const instructions = `This is the mcpverdict example server, a small deterministic server that exercises every MCP server feature.
Tools: echo and add answer at once; slow_count counts slowly, reports progress when given a progressToken and stops when cancelled; remember adds a line to an in-memory note and forget deletes a note; lookup_weather answers from a fixed table (no network); logo returns a small PNG; greet asks for your name (form elicitation) and greets you by it.
Resources: example://readme, example://logo.png, example://weather.json and one notes://{name} resource per note; subscribe to a note to hear when it changes.
Prompts: introduce_server, summarize_note and weather_report; their arguments and the notes:// template complete.
Set a log level (logging/setLevel) to receive log messages from the note and weather tools.`

// exampleServer holds the state the handlers share: the MCP server they
// belong to (to send notifications), the note store and the prompts.
type exampleServer struct {
	server  *mcp.Server
	notes   *noteStore
	prompts map[string]promptDef // by name, for completion
}

// New returns a fresh example server with its own note store. Each call
// starts from the same state, so two servers answer the same requests alike.
func New() *mcp.Server {
	e := &exampleServer{notes: newNoteStore()}
	e.server = mcp.NewServer(implementation(), &mcp.ServerOptions{
		Instructions:       instructions,
		PageSize:           pageSize,
		Capabilities:       capabilities(),
		CompletionHandler:  e.complete,
		SubscribeHandler:   e.subscribe,
		UnsubscribeHandler: e.unsubscribe,
	})
	e.addTools()
	e.addResources()
	e.addPrompts()
	// The first middleware is the outermost: it sees every request first.
	e.server.AddReceivingMiddleware(
		recoverPanics,
		newRateLimit().middleware,
		pinRequestedVersion,
		rejectMissingProtocolMeta,
		rejectNonObjectArguments,
		rejectUnknownLogLevels,
		resourceNotFoundCodeByRevision,
	)
	return e.server
}

func implementation() *mcp.Implementation {
	return &mcp.Implementation{
		Name:        serverName,
		Title:       serverTitle,
		Version:     serverVersion,
		Description: "A small, deterministic MCP server that exercises every server feature; built into mcpverdict.",
		Icons:       []mcp.Icon{logoIcon()},
	}
}

// capabilities states what the server offers, truthfully: the tool and
// prompt lists never change, so they do not claim listChanged; the resource
// list does (one resource per note), and notes can be subscribed to.
func capabilities() *mcp.ServerCapabilities {
	return &mcp.ServerCapabilities{
		//lint:ignore SA1019 deprecated only from 2026-07-28 on; offered to 2025-11-25 clients.
		Logging:     &mcp.LoggingCapabilities{},
		Completions: &mcp.CompletionCapabilities{},
		Tools:       &mcp.ToolCapabilities{},
		Prompts:     &mcp.PromptCapabilities{},
		Resources:   &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
	}
}
