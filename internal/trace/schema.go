package trace

import _ "embed"

// EventSchema is the JSON Schema of one trace line, published so that a
// recorder written in any language can check its own output.
//
//go:embed trace-event.schema.json
var EventSchema []byte
