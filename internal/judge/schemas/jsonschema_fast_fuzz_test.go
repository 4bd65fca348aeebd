package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"testing"
)

// FuzzFastSchemaNeverOverrules holds the fast form to the library: what it
// proves valid the library finds valid, for any schema that has a fast form
// and any instance, as tools/call arguments (nulls absent) or not.
func FuzzFastSchemaNeverOverrules(f *testing.F) {
	for _, tc := range fastCases {
		f.Add([]byte(tc.schema), []byte(tc.instance), tc.arguments)
	}
	for _, schema := range fastSchemas() {
		for _, instance := range []string{`{"a":1,"b":"x","o":{"a":null},"l":[{"a":2}]}`, `[{"a":1e0}]`, `"\u00e9\u00e9"`, `0.5`} {
			f.Add([]byte(schema), []byte(instance), true)
		}
	}
	f.Fuzz(func(t *testing.T, schema, instance []byte, arguments bool) {
		c := CompileOffline(schema)
		if !c.Usable() || c.fast == nil {
			return
		}
		fast, libErr := fastVerdictAndLibraryError(t, c, instance, arguments)
		if errors.Is(libErr, ErrUndecided) {
			t.Skip("the library cannot decide this instance")
		}
		if fast && libErr != nil {
			t.Fatalf("fast form proves %q valid against %s (arguments %v); the library says %v",
				instance, schema, arguments, libErr)
		}
	})
}

// FuzzFastSchemaDecidesPlainInstances holds the fast form to deciding
// exactly what the library decides on instances without the cases it
// leaves to the library (repeated names, escaped surrogates in names,
// numbers beyond 15 significant digits): the fuzzed bytes choose the
// instance's shape, the fixed schemas judge it.
func FuzzFastSchemaDecidesPlainInstances(f *testing.F) {
	f.Add([]byte{5, 0b1011, 4, 2, 1, 3})
	f.Add([]byte{5, 0b110001, 3, 1, 0, 5, 2, 4, 5, 6})
	f.Add([]byte{4, 3, 2, 7, 3, 9})
	compiled := map[string]*CompiledSchema{}
	for _, schema := range fastSchemas() {
		compiled[schema] = CompileOffline(json.RawMessage(schema))
	}
	f.Fuzz(func(t *testing.T, choices []byte) {
		g := plainGenerator{choices: choices}
		var instance bytes.Buffer
		g.Value(&instance, 0)
		for schema, c := range compiled {
			for _, arguments := range []bool{false, true} {
				if fast, library := fastAndLibraryVerdicts(t, c, instance.Bytes(), arguments); fast != library {
					t.Fatalf("%s against %s (arguments %v): fast %v, library %v",
						instance.Bytes(), schema, arguments, fast, library)
				}
			}
		}
	})
}

// fastSchemas are the distinct schemas of the table cases.
func fastSchemas() []string {
	schemas := map[string]bool{}
	for _, tc := range fastCases {
		schemas[tc.schema] = true
	}
	return slices.Sorted(maps.Keys(schemas))
}

// plainGenerator writes a JSON value whose shape the fuzzed choices pick,
// from names, numbers and strings the fast form decides exactly.
type plainGenerator struct {
	choices []byte
	at      int
}

var (
	plainNames   = []string{"a", "b", "o", "l", "n", "r", "x", "😀"}
	plainNumbers = []string{"0", "-0", "1", "1.0", "1e2", "2.5", "-3", "10", "9.5", "0.1", "1e-1", "100e-2", "12345", "-0.5", "2.000", "9007199254740994"}
	plainStrings = []string{`""`, `"a"`, `"é"`, `"ab"`, `"abc"`, `"abcd"`, `"x\u00e9"`, `"a\"b"`, `"1"`, `"😀😀"`}
)

func (g *plainGenerator) next() int {
	if g.at >= len(g.choices) {
		return 0
	}
	g.at++
	return int(g.choices[g.at-1])
}

func (g *plainGenerator) Value(out *bytes.Buffer, depth int) {
	switch kind := g.next() % 7; {
	case kind == 0:
		out.WriteString("null")
	case kind == 1:
		out.WriteString([]string{"true", "false"}[g.next()%2])
	case kind == 2:
		out.WriteString(plainNumbers[g.next()%len(plainNumbers)])
	case kind == 3:
		out.WriteString(plainStrings[g.next()%len(plainStrings)])
	case depth >= 3:
		out.WriteString("{}")
	case kind == 4:
		g.array(out, depth)
	default:
		g.object(out, depth)
	}
}

func (g *plainGenerator) array(out *bytes.Buffer, depth int) {
	out.WriteByte('[')
	for i := range g.next() % 4 {
		if i > 0 {
			out.WriteByte(',')
		}
		g.Value(out, depth+1)
	}
	out.WriteByte(']')
}

// object writes the names a bit set picks, each once.
func (g *plainGenerator) object(out *bytes.Buffer, depth int) {
	out.WriteByte('{')
	names := g.next()
	first := true
	for i, name := range plainNames {
		if names&(1<<i) == 0 {
			continue
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		out.WriteString(`"` + name + `":`)
		g.Value(out, depth+1)
	}
	out.WriteByte('}')
}
