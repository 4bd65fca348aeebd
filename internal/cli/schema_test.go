package cli

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Each published schema prints as a schema the JSON Schema library
// compiles, and an unknown name is a usage error.
func TestSchemaPrint(t *testing.T) {
	for _, name := range []string{"report", "trace-event", "probe-report"} {
		code, stdout, stderr := runCLI(t, "schema", "print", name)
		if code != 0 {
			t.Fatalf("schema print %s: exit %d: %s", name, code, stderr)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(stdout))
		if err != nil {
			t.Fatalf("schema print %s: not JSON: %v", name, err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(name+".json", doc); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Compile(name + ".json"); err != nil {
			t.Errorf("schema print %s: does not compile: %v", name, err)
		}
	}
	if code, _, stderr := runCLI(t, "schema", "print", "ledger"); code != 2 || !strings.Contains(stderr, "choose one of probe-report, report, trace-event") {
		t.Errorf("unknown name: exit %d: %s", code, stderr)
	}
}
