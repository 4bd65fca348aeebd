package reporters

import _ "embed"

// ReportSchema is the published JSON Schema (draft 2020-12) of the json
// format: what `--format json` writes, field by field.
//
//go:embed report.schema.json
var ReportSchema []byte
