package engine

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// ToolHeadersFact is what tools/list results said of the headers of each
// tool, by tool name: the tools rules learn it and the HTTP rules hold
// requests to it.
var ToolHeadersFact = NewTraceFact(func() *FifoMap[*ListedTool] { return NewFIFO[*ListedTool](MaxListedTools) })

// MaxListedTools bounds the tool definitions remembered for their
// x-mcp-header annotations.
const MaxListedTools = 4096

// ListedTool is what a tools/list result said of a tool's headers.
type ListedTool struct {
	Params  []HeaderAnnotation
	Invalid string
	Listed  *trace.Event
	Called  bool
}

// HeaderAnnotation is one x-mcp-header found in an inputSchema.
type HeaderAnnotation struct {
	Raw  json.RawMessage
	Name string
	Path []string
	// Static is set when only properties keys lead to it from the root.
	Static bool
	Type   json.RawMessage
}
