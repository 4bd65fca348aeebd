package reporters

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CompileReportSchema compiles the published schema of the json format.
func compileReportSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ReportSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("report.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every golden JSON report is held to the published schema, so the schema
// and the report cannot drift apart.
func TestGoldenJSONReportsMatchTheSchema(t *testing.T) {
	schema := compileReportSchema(t)
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	if len(paths) == 0 {
		t.Fatal("no golden JSON reports")
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%s does not match report.schema.json: %v", p, err)
		}
	}
}

// The schema refuses what the report never holds, so a test that passes
// proves something.
func TestReportSchemaRefusesDrift(t *testing.T) {
	schema := compileReportSchema(t)
	for _, bad := range []string{
		`{"tool":"mcpverdict","version":"1","strict":false,"runs":[],"totals":{"pass":0,"fail":0,"warn":0,"not_observed":0,"not_applicable":0,"excluded":0},"verdict":"maybe"}`,
		`{"tool":"mcpverdict","version":"1","strict":false,"runs":[],"totals":{"pass":0,"fail":0,"warn":0,"not_observed":0,"not_applicable":0,"excluded":0},"verdict":"pass","extra":1}`,
		`{"tool":"mcpverdict","version":"1","strict":false,"runs":[]}`,
	} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(bad)))
		if err != nil {
			t.Fatal(err)
		}
		if schema.Validate(doc) == nil {
			t.Errorf("schema accepts %s", bad)
		}
	}
}
