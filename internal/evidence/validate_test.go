package evidence

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readPair(t *testing.T) (*Declared, *Observed) {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	d, err := ReadDeclared("weather-declared.json", read("weather-declared.json"))
	if err != nil {
		t.Fatal(err)
	}
	o, err := ReadObserved("weather-observed.json", read("weather-observed.json"))
	if err != nil {
		t.Fatal(err)
	}
	return d, o
}

func TestValidateFindsEachCheck(t *testing.T) {
	rep, err := Validate(readPair(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		got = append(got, string(f.Check)+"@"+string(rune('0'+*f.ObservationIndex)))
	}
	want := "scope_violation@2 contract_mutated@3 unknown_tool@4 recipe_mismatch@5 unbound_annotation@6 scope_violation@6"
	if strings.Join(got, " ") != want {
		t.Errorf("findings %s\nwant     %s", strings.Join(got, " "), want)
	}
	if len(rep.Healthy) != 2 || rep.Healthy[0].Check != BoundUnmutated {
		t.Errorf("healthy %+v", rep.Healthy)
	}
	if s := rep.Summary; s.DeclaredTools != 2 || s.Observations != 7 || s.Findings != 6 || len(s.ContractRecipes) != 3 {
		t.Errorf("summary %+v", s)
	}
	if f := rep.Findings[3]; f.ObservedRecipeStated == nil || *f.ObservedRecipeStated || f.ObservedRecipe != Recipe1 {
		t.Errorf("recipe mismatch %+v", f)
	}
}

func TestScopeIsJudgedAgainstTheWholeSchema(t *testing.T) {
	rep, _ := Validate(readPair(t))
	b, _ := json.Marshal(rep.Findings[0].Violations)
	for _, want := range []string{
		`$.admin_token","problem":"argument not declared in the input schema`,
		`$.days","problem":"expected integer, found string`,
		`$.units","problem":"\"kelvin\" is not one of [\"metric\",\"imperial\"]`,
		`$.city","problem":"0 characters, but minLength is 1`,
		`$.at.lon","problem":"missing required property`,
		`$.at.alt","problem":"argument not declared in the input schema`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("violations %s lack %s", b, want)
		}
	}
	if v := rep.Findings[5].Violations; len(v) != 1 || !strings.Contains(v[0].Problem, "maxItems is 2") {
		t.Errorf("submit_report violations %+v", v)
	}
}

func TestBadInputNamesFileAndPath(t *testing.T) {
	cases := map[string]string{
		`{"tools":[{"name":"a"},{"name":"a"}]}`:                     `d.json: $.tools[1].name: duplicate tool name "a" (first at $.tools[0])`,
		`{"tools":[{"description":"x"}]}`:                           `d.json: $.tools[0].name: missing: expected a string`,
		`{"tools":[{"name":"a","input_schema":[]}]}`:                `d.json: $.tools[0].input_schema: expected an object, found array`,
		`{"contract_recipe":"9","tools":[]}`:                        `d.json: $.contract_recipe: unknown contract recipe "9"`,
		`{"tools":[{"name":"a","contract_recipe":7}]}`:              `d.json: $.tools[0].contract_recipe: expected a string, found number`,
		`{"tools":[],"annotations":[{"bound_contract":1}]}`:         `d.json: $.annotations[0].bound_contract: expected a string`,
		`{"tools":[{"name":"a","name":"b"}]}`:                       `d.json: $.tools[0].name: duplicate key "name"`,
		`[]`:                                                        `d.json: $: expected an object, found array`,
		`{}`:                                                        `d.json: $.tools: missing: expected an array`,
		`{"tools":[{"name":"a","description":"\ud800"}]}`:           `d.json: $.tools[0].description: lone surrogate`,
		`{"tools":[{"name":"a","input_schema":{"maximum":1e999}}]}`: `d.json: $.tools[0].input_schema.maximum: number 1e999 is out of range`,
	}
	for in, want := range cases {
		_, err := ReadDeclared("d.json", []byte(in))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %s", in, err, want)
		}
	}
	obs := map[string]string{
		`{"observations":[{"tool":"a","index":1.5}]}`:           `o.json: $.observations[0].index: expected an integer, found 1.5`,
		`{"observations":[{"args":{}}]}`:                        `o.json: $.observations[0].tool: missing`,
		`{"observations":[{"tool":"a","contract_recipe":"4"}]}`: `o.json: $.observations[0].contract_recipe: unknown contract recipe "4"`,
		`{"observations":[{"tool":"a","args":"x"}]}`:            `o.json: $.observations[0].args: expected an object, found string`,
	}
	for in, want := range obs {
		_, err := ReadObserved("o.json", []byte(in))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %s", in, err, want)
		}
	}
}
