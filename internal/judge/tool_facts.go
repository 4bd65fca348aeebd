package judge

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// toolHeadersFact is what tools/list results said of the headers of each
// tool, by tool name: the tools rules learn it and the HTTP rules hold
// requests to it.
var toolHeadersFact = NewTraceFact(func() *fifoMap[*listedTool] { return newFIFO[*listedTool](maxListedTools) })

// maxListedTools bounds the tool definitions remembered for their
// x-mcp-header annotations.
const maxListedTools = 4096

// listedTool is what a tools/list result said of a tool's headers.
type listedTool struct {
	Params  []headerAnnotation
	Invalid string
	Listed  *trace.Event
	Called  bool
}

// headerAnnotation is one x-mcp-header found in an inputSchema.
type headerAnnotation struct {
	Raw  json.RawMessage
	Name string
	Path []string
	// Static is set when only properties keys lead to it from the root.
	Static bool
	Type   json.RawMessage
}
