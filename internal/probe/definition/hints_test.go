package definition

import "testing"

func TestHintsAreTriStateFromTheRawBytes(t *testing.T) {
	page := `{"tools":[
		{"name":"a","annotations":{"readOnlyHint":true,"destructiveHint":false}},
		{"name":"b","annotations":{"readOnlyHint":"true","idempotentHint":1,"openWorldHint":null,"destructiveHint":0}},
		{"name":"c"},
		{"name":"d","annotations":null},
		{"name":"e","annotations":{"readOnlyHint":true,"readOnlyHint":false}}
	]}`
	cs, err := ParseContracts([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]Hint{
		"a": {ReadOnlyHint: {Value: HintTrue}, DestructiveHint: {Value: HintFalse}, IdempotentHint: {Value: HintAbsent}, OpenWorldHint: {Value: HintAbsent}},
		"b": {ReadOnlyHint: {Value: HintMalformed, Raw: `"true"`}, IdempotentHint: {Value: HintMalformed, Raw: "1"}, OpenWorldHint: {Value: HintMalformed, Raw: "null"}, DestructiveHint: {Value: HintMalformed, Raw: "0"}},
		"c": {ReadOnlyHint: {Value: HintAbsent}, DestructiveHint: {Value: HintAbsent}, IdempotentHint: {Value: HintAbsent}, OpenWorldHint: {Value: HintAbsent}},
		"d": {ReadOnlyHint: {Value: HintAbsent}, DestructiveHint: {Value: HintAbsent}, IdempotentHint: {Value: HintAbsent}, OpenWorldHint: {Value: HintAbsent}},
		"e": {ReadOnlyHint: {Value: HintMalformed, Raw: "true, false"}},
	}
	for _, c := range cs {
		for name, h := range want[c.Tool] {
			if got := c.Hint(name); got != h {
				t.Errorf("%s %s: got %+v, want %+v", c.Tool, name, got, h)
			}
		}
	}
}

func TestParseContractsRefusesWhatIsNotAToolList(t *testing.T) {
	for _, page := range []string{`[]`, `{"tools":[{"annotations":{}}]}`, `{"tools":[{"name":"x","annotations":[1]}]}`} {
		if _, err := ParseContracts([]byte(page)); err == nil {
			t.Errorf("%s: no error", page)
		}
	}
}

func FuzzParseContracts(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a","annotations":{"readOnlyHint":true}}]}`))
	f.Add([]byte(`{"tools":[{"name":"a","annotations":{"readOnlyHint":"true","readOnlyHint":1}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		cs, err := ParseContracts(b)
		if err != nil {
			return
		}
		for _, c := range cs {
			for _, n := range HintNames {
				switch c.Hint(n).Value {
				case HintTrue, HintFalse, HintAbsent, HintMalformed:
				default:
					t.Fatalf("%s %s: value %q", c.Tool, n, c.Hint(n).Value)
				}
			}
		}
	})
}
