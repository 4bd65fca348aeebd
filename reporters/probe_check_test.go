package reporters

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Every format shows the probe verdicts a clause report carries (check
// --probe), each where it belongs, and the JSON still matches the
// published schema.
func TestEveryFormatShowsTheProbes(t *testing.T) {
	rep := syntheticProbeReport()
	rep.Summary = map[string]int{}
	for _, tool := range rep.Tools {
		for _, tr := range tool.Tests {
			rep.Summary[string(tr.Verdict)]++
		}
	}
	opts := goldenOptions()
	want := map[string][]string{
		"text": {"probe synthetic (testdata/probe-synthetic.toml): 2 VIOLATION, 1 INCONCLUSIVE, 1 OVER_DECLARED, 1 PASS, 2 NOT_APPLICABLE\n",
			"  VIOLATION        echo read_only (readOnlyHint true): BUSINESS_CHANGE: run 1: overwritten 1 in state.db:items\n",
			"register_user sequential_idempotence (idempotentHint false): STRONGER_PROPERTY_HELD: two calls left the same business state as one in every run [expected PASS]"},
		"markdown": {"### Tool annotations probed: `synthetic`", "| `echo` | ❌ VIOLATION | ➖ NOT_APPLICABLE | ➖ NOT_APPLICABLE | – | – |"},
		"github": {"::error file=src/tools/echo.ts,line=12,title=probe/read_only%3A echo readOnlyHint true::",
			"::warning file=testdata/probe-synthetic.toml,line=10,title=probe/open_world%3A register_user openWorldHint false::"},
		"junit": {`<testcase name="echo read_only (readOnlyHint true)"`, `<testcase name="register_user concurrent_idempotence (idempotentHint true)"`},
		"sarif": {`"ruleId": "probe/read_only"`, `"uri": "src/tools/echo.ts"`, "probe synthetic: openWorldHint was not tested"},
		"json":  {`"probes": [`, `"tool": "register_user"`},
	}
	for name, wants := range want {
		r, _ := Get(name)
		var b bytes.Buffer
		if err := r.Write(&b, ForClauses(syntheticReport(), rep), opts); err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q:\n%s", name, w, b.String())
			}
		}
		if name == "json" {
			doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
			if err := compileReportSchema(t).Validate(doc); err != nil {
				t.Errorf("the JSON report with probes does not match report.schema.json: %v", err)
			}
		}
	}
}
