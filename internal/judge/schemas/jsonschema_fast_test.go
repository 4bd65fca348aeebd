package schemas

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// fastCase is an instance whose verdicts from the fast form and from the
// library are both pinned down: the fast form may fail to prove a valid
// instance valid (fast false, library true), never the reverse.
type fastCase struct {
	schema, instance string
	arguments        bool // validated as tools/call arguments: nulls absent
	fast, library    bool
}

const (
	addSchema   = `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string"}},"required":["a"]}`
	rangeSchema = `{"type":"number","minimum":0,"exclusiveMaximum":10}`
	lenSchema   = `{"type":"string","minLength":2,"maxLength":3}`
	enumSchema  = `{"enum":["a","é",1,true,null]}`
	closed      = `{"properties":{"a":{}},"additionalProperties":false}`
	nested      = `{"properties":{"o":{"properties":{"a":{"type":"number"}}},"l":{"items":{"properties":{"a":{"type":"number"}}}}}}`
	listSchema  = `{"type":"array","items":{"type":"object","properties":{"a":{"type":"number"}}},"minItems":1,"maxItems":2}`
	emojiKey    = `{"properties":{"😀":{"type":"string"}},"additionalProperties":false}`
	mcpHeader   = `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"q":{"x-mcp-header":{"a":[1]}}}}`
	draft07     = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}}}`
)

var fastCases = []fastCase{
	{addSchema, `{"a":1}`, false, true, true},
	{addSchema, ` {"a":1,"b":"x"} `, false, true, true},
	{addSchema, `{"a":"1"}`, false, false, false},
	{addSchema, `{}`, false, false, false},
	{addSchema, `[1]`, false, false, false},
	{addSchema, `{"a":1}x`, false, false, false},
	{addSchema, `{"\u0061":1}`, false, true, true},
	{addSchema, `{"\u0061":"x"}`, false, false, false},
	// A repeated known name is left to the library: the last one counts.
	{addSchema, `{"a":1,"a":2}`, false, false, true},
	{addSchema, `{"a":"x","a":1}`, false, false, true},
	{addSchema, `{"a":1,"a":"x"}`, false, false, false},
	// Null arguments are absent; elsewhere null is a value.
	{addSchema, `{"a":1,"b":null}`, true, true, true},
	{addSchema, `{"a":1,"b":null}`, false, false, false},
	{addSchema, `{"a":null}`, true, false, false},
	{addSchema, `{"a":1,"a":null}`, true, false, false},
	{addSchema, `{"a":null,"a":1}`, true, false, true},
	{addSchema, ``, true, false, false}, // no arguments: {}
	{addSchema, `null`, true, false, false},
	{`{"type":"object"}`, `null`, true, true, true},
	{`{"type":"object"}`, ``, true, true, true},

	// integer is a value, not a spelling.
	{`{"type":"integer"}`, `1`, false, true, true},
	{`{"type":"integer"}`, `1.0`, false, true, true},
	{`{"type":"integer"}`, `1e2`, false, true, true},
	{`{"type":"integer"}`, `1.5e1`, false, true, true},
	{`{"type":"integer"}`, `100e-2`, false, true, true},
	{`{"type":"integer"}`, `-0`, false, true, true},
	{`{"type":"integer"}`, `0.0e-7`, false, true, true},
	{`{"type":"integer"}`, `12345678901234567890`, false, true, true},
	{`{"type":"integer"}`, `1.5`, false, false, false},
	{`{"type":"integer"}`, `1e-2`, false, false, false},
	{`{"type":"integer"}`, `10.10e-1`, false, false, false},
	{`{"type":"integer"}`, `1.0000000000000000001`, false, false, false},
	{`{"type":"integer"}`, `"1"`, false, false, false},
	{`{"type":["integer","string"]}`, `2.000`, false, true, true},

	// Bounds are exact: floats decide only where they cannot differ.
	{rangeSchema, `0`, false, true, true},
	{rangeSchema, `-0`, false, true, true},
	{rangeSchema, `0.1`, false, true, true},
	{rangeSchema, `10`, false, false, false},
	{rangeSchema, `-1`, false, false, false},
	{rangeSchema, `9.999999999999999999`, false, false, true}, // rounds to 10
	{rangeSchema, `1e-400`, false, false, true},               // rounds to 0
	{rangeSchema, `-1e-400`, false, false, false},
	{rangeSchema, `10.000000000000001`, false, false, false},
	{`{"maximum":0.1}`, `0.1`, false, true, true},
	{`{"maximum":0.1}`, `0.10000000000000001`, false, false, false}, // rounds to 0.1
	{`{"minimum":9007199254740993}`, `9007199254740992`, false, false, false},
	{`{"minimum":9007199254740993}`, `9007199254740994`, false, true, true},
	{`{"exclusiveMinimum":1e308}`, `1e309`, false, true, true}, // +Inf, still above
	{`{"maximum":1e308}`, `1e309`, false, false, false},
	{`{"maximum":1e309}`, `1e310`, false, false, false}, // both +Inf
	{`{"minimum":1}`, `"0"`, false, true, true},         // bounds numbers only

	// Lengths count code points of the decoded string.
	{lenSchema, `"ab"`, false, true, true},
	{lenSchema, `"é"`, false, false, false},
	{lenSchema, `"éé"`, false, true, true},
	{lenSchema, `"😀😀😀"`, false, true, true},
	{lenSchema, `"\ud83d\ude00\ud83d\ude00"`, false, true, true},
	{lenSchema, `"\ud800\ud800"`, false, true, true}, // two U+FFFD
	{lenSchema, `"\ud83d\ude00"`, false, false, false},
	{lenSchema, `"a\u0000"`, false, true, true},
	{lenSchema, "\"\xff\xfe\"", false, true, true},
	{lenSchema, `"abcd"`, false, false, false},
	{`{"minLength":2}`, `5`, false, true, true},

	{enumSchema, `"a"`, false, true, true},
	{enumSchema, `"\u00e9"`, false, true, true},
	{enumSchema, `"é"`, false, true, true},
	{enumSchema, `1.0`, false, true, true},
	{enumSchema, `1e0`, false, true, true},
	{enumSchema, `true`, false, true, true},
	{enumSchema, `null`, false, true, true},
	{enumSchema, `"1"`, false, false, false},
	{enumSchema, `false`, false, false, false},
	{enumSchema, `{}`, false, false, false},
	{enumSchema, `[]`, false, false, false},
	{`{"const":0.1}`, `1e-1`, false, true, true},
	{`{"const":0.1}`, `0.10000000000000001`, false, false, false},
	{`{"const":"a\"b"}`, `"a\"b"`, false, true, true},
	{`{"enum":[]}`, `1`, false, false, false},

	// "type" absent: each keyword applies to its own type only.
	{`{"properties":{"a":{"type":"string"}}}`, `1`, false, true, true},
	{`{"properties":{"a":{"type":"string"}}}`, `[1]`, false, true, true},
	{`{"properties":{"a":{"type":"string"}}}`, `{"a":1}`, false, false, false},
	{`{"type":["string","null"]}`, `null`, false, true, true},
	{`{"type":["string","null"]}`, `1`, false, false, false},

	{closed, `{"a":1}`, false, true, true},
	{closed, `{"b":1}`, false, false, false},
	{closed, `{"b":null}`, true, true, true},
	{closed, `{"b":1,"b":null}`, true, false, true},
	{closed, `{"a":1,"\u0062":2}`, false, false, false},
	{`{"additionalProperties":{"type":"integer"}}`, `{"x":1,"y":2.0}`, false, true, true},
	{`{"additionalProperties":{"type":"integer"}}`, `{"x":"s"}`, false, false, false},
	{`{"required":["r"],"additionalProperties":{"type":"string"}}`, `{"r":"x"}`, false, true, true},
	{`{"required":["r"],"additionalProperties":{"type":"string"}}`, `{"r":1}`, false, false, false},
	{`{"properties":{"a":false}}`, `{}`, false, true, true},
	{`{"properties":{"a":false}}`, `{"a":1}`, false, false, false},
	{`{"properties":{"a":false}}`, `{"a":null}`, true, true, true},

	// Nulls are absent through objects, never inside arrays.
	{nested, `{"o":{"a":null}}`, true, true, true},
	{nested, `{"o":{"a":null}}`, false, false, false},
	{nested, `{"l":[{"a":null}]}`, true, false, false},
	{listSchema, `[{"a":1}]`, false, true, true},
	{listSchema, `[{"a":null}]`, true, false, false},
	{listSchema, `[]`, false, false, false},
	{listSchema, `[1]`, false, false, false},
	{listSchema, `[{},{},{}]`, false, false, false},

	{emojiKey, `{"😀":"x"}`, false, true, true},
	{emojiKey, `{"\ud83d\ude00":"x"}`, false, false, true}, // surrogate escapes: left to the library
	{mcpHeader, `{"region":"eu","q":{"zone":"a"}}`, false, true, true},
	{mcpHeader, `{"region":1}`, false, false, false},
	{draft07, `{"n":1.0}`, false, true, true},
	{draft07, `{"n":1.5}`, false, false, false},
	{`{"type":"array"}`, strings.Repeat("[", 10001) + strings.Repeat("]", 10001), false, false, false},
}

func TestFastSchemaVerdicts(t *testing.T) {
	for _, tc := range fastCases {
		c := CompileOffline(json.RawMessage(tc.schema))
		if c.fast == nil {
			t.Fatalf("%s: no fast form", tc.schema)
		}
		fast, library := fastAndLibraryVerdicts(t, c, []byte(tc.instance), tc.arguments)
		if fast != tc.fast || library != tc.library {
			t.Errorf("%s against %.60s (arguments %v): fast %v, library %v; want %v, %v",
				tc.instance, tc.schema, tc.arguments, fast, library, tc.fast, tc.library)
		}
	}
}

// fastAndLibraryVerdicts is each path's verdict on one instance; an empty
// instance stands for absent arguments.
func fastAndLibraryVerdicts(t testing.TB, c *CompiledSchema, instance []byte, arguments bool) (fast, library bool) {
	fast, libErr := fastVerdictAndLibraryError(t, c, instance, arguments)
	return fast, libErr == nil
}

// fastVerdictAndLibraryError is the fast form's verdict and the library's
// error (errUndecided where the library gives up).
func fastVerdictAndLibraryError(t testing.TB, c *CompiledSchema, instance []byte, arguments bool) (bool, error) {
	var raw json.RawMessage
	if len(instance) > 0 || !arguments {
		raw = instance
	}
	if arguments {
		return fastVerdict(t, c, argumentsOrEmpty(raw), true), c.validateWithLibrary(WithoutNulls(raw))
	}
	return fastVerdict(t, c, raw, false), c.validateWithLibrary(raw)
}

// fastVerdict is the fast form's verdict on an instance. On well-formed
// text, the reading that trusts its grammar must give the same verdict.
func fastVerdict(t testing.TB, c *CompiledSchema, instance []byte, nullsAbsent bool) bool {
	t.Helper()
	text, ok := rawjson.Check(instance)
	return ok && c.fast.Valid(text, nullsAbsent)
}

func TestFastSchemaOnlyForItsKeywords(t *testing.T) {
	for _, schema := range []string{
		`{"$ref":"#/$defs/a","$defs":{"a":{}}}`,
		`{"$defs":{"a":{}}}`,
		`{"$id":"urn:x"}`,
		`{"type":"string","pattern":"a"}`,
		`{"type":"string","format":"email"}`,
		`{"anyOf":[{"type":"string"}]}`,
		`{"allOf":[{}]}`, `{"oneOf":[{}]}`, `{"not":{}}`,
		`{"if":{},"then":{}}`,
		`{"dependentRequired":{"a":["b"]}}`,
		`{"unevaluatedProperties":false}`,
		`{"minProperties":1}`, `{"uniqueItems":true}`, `{"multipleOf":2}`,
		`{"patternProperties":{"a":{}}}`, `{"propertyNames":{}}`, `{"contains":{}}`,
		`{"prefixItems":[{}]}`,
		`{"vendorKeyword":1}`,
		`{"enum":[[1]]}`, `{"const":{"a":1}}`,
		`{"$schema":"http://json-schema.org/draft-04/schema#"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{}]}`,
		`{"properties":{"a":{"$schema":"https://json-schema.org/draft/2020-12/schema"}}}`,
		`{"properties":{"a":{"type":"string","format":"uri"}}}`,
		`{"maxLength":1e40}`,
	} {
		c := CompileOffline(json.RawMessage(schema))
		if !c.Usable() {
			t.Errorf("%s: the library did not compile it", schema)
		} else if c.fast != nil {
			t.Errorf("%s: has a fast form", schema)
		}
	}
}

func TestFastSchemaAllocatesNothing(t *testing.T) {
	c := CompileOffline(json.RawMessage(addSchema))
	args := json.RawMessage(`{"a": 12.5, "b": "héllo", "c": null}`)
	allocs := testing.AllocsPerRun(100, func() {
		if c.ValidateArguments(judgetest.TextOf(args, true)) != nil {
			t.Fatal("rejected")
		}
	})
	if allocs != 0 {
		t.Errorf("validating arguments allocates %v times", allocs)
	}
}

func TestFastSchemaKnowsAtMost64Names(t *testing.T) {
	for names, want := range map[int]bool{64: true, 65: false} {
		var props []string
		for i := range names {
			props = append(props, fmt.Sprintf(`"p%d":{"type":"integer"}`, i))
		}
		schema := `{"properties":{` + strings.Join(props, ",") + `}}`
		c := CompileOffline(json.RawMessage(schema))
		if got := c.fast != nil; got != want {
			t.Errorf("%d properties: fast form %v, want %v", names, got, want)
		}
		if want && (!c.fast.Valid(judgetest.TextOf([]byte(`{"p63":1,"p0":2,"zz":"x"}`), true), false) || c.fast.Valid(judgetest.TextOf([]byte(`{"p63":1.5}`), true), false)) {
			t.Errorf("%d properties: the 64th name is not checked", names)
		}
	}
}

// BenchmarkValidateArguments compares the fast form with the library alone
// on the benchmark trace's tools/call arguments.
func BenchmarkValidateArguments(b *testing.B) {
	c := CompileOffline(json.RawMessage(addSchema))
	args := json.RawMessage(`{"a":12,"b":"thirty"}`)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if c.ValidateArguments(judgetest.TextOf(args, true)) != nil {
				b.Fatal("rejected")
			}
		}
	})
	b.Run("library", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if c.validateWithLibrary(WithoutNulls(args)) != nil {
				b.Fatal("rejected")
			}
		}
	})
}
