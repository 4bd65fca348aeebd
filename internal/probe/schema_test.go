package probe_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpverdict/mcpverdict/internal/probe"
)

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

func reportSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		var doc any
		if doc, schemaErr = jsonschema.UnmarshalJSON(bytes.NewReader(probe.ReportSchema)); schemaErr != nil {
			return
		}
		c := jsonschema.NewCompiler()
		if schemaErr = c.AddResource("probe-report.schema.json", doc); schemaErr == nil {
			schema, schemaErr = c.Compile("probe-report.schema.json")
		}
	})
	if schemaErr != nil {
		t.Fatalf("the published report schema does not compile: %v", schemaErr)
	}
	return schema
}

// checkReportSchema holds a report's JSON to the published schema.
func checkReportSchema(t *testing.T, rep *probe.Report) {
	t.Helper()
	var b bytes.Buffer
	if err := probe.WriteJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if err := reportSchema(t).Validate(v); err != nil {
		t.Errorf("%s: the JSON report does not match probe-report.schema.json: %v", rep.Definition.Name, err)
	}
}
