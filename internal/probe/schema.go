package probe

import _ "embed"

// ReportSchema is the JSON Schema of the JSON report.
//
//go:embed probe-report.schema.json
var ReportSchema []byte
