package testserver

import (
	"context"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() { Register("echo", runEcho) }

type echoArgs struct {
	Message string `json:"message" jsonschema:"the text to send back"`
}

// NewEchoServer is a fast MCP server with one read-only tool, echo, used
// where a test or benchmark needs a real peer that does next to nothing.
func NewEchoServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpverdict-echo", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "echo",
		Description: "Returns the message it is given.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool), DestructiveHint: new(bool)},
	}, func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Message}}}, nil, nil
	})
	return s
}

func runEcho() int {
	if err := NewEchoServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Stderr.WriteString("echo fixture: " + err.Error() + "\n")
		return 1
	}
	return 0
}
