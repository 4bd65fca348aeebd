package rawjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestDuplicateScanner(t *testing.T) {
	many := func(extra string) string {
		var b strings.Builder
		b.WriteString(`{"o":{`)
		for i := range 40 {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		b.WriteString(extra + `"end":0}}`)
		return b.String()
	}
	for _, c := range []struct {
		in   string
		want *Duplicate
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil},
		{`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, &Duplicate{At: 24, Name: "id", Depth: 0}},
		{`{"a":{"x":1},"b":{"x":1}}`, nil},
		{`{"a":[{"x":1,"y":"x"},{"x":2}],"b":{"c":{"x":1,"x":2}}}`, &Duplicate{At: 47, Name: "x", Depth: 2}},
		{`{"\u0069d":1,"id":2}`, &Duplicate{At: 13, Name: "id", Depth: 0}},
		{`{"s":"{\"a\":1,\"a\":2}","t":["a","a"]}`, nil},
		{`[{"a":1},{"a":1,"b":{"a":2}}]`, nil},
		{many(``), nil},
		{many(`"k7":7,`), &Duplicate{At: 346, Name: "k7", Depth: 1}},
	} {
		var d DuplicateScanner
		got, ok := d.First(Checked{[]byte(c.in)})
		switch {
		case c.want == nil && ok:
			t.Errorf("First(%s) = %+v, want none", c.in, got)
		case c.want != nil && (!ok || got != *c.want):
			t.Errorf("First(%s) = %+v %v, want %+v", c.in, got, ok, *c.want)
		}
	}
}

// TestDuplicateScannerKeepsNoStaleMap holds the map's ownership rule: a
// large object nested in a large object, and large siblings one after
// another, are each judged by their own names only.
func TestDuplicateScannerKeepsNoStaleMap(t *testing.T) {
	object := func(prefix string, n int, inner string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, `"%s%d":0,`, prefix, i)
		}
		b.WriteString(`"inner":` + inner + "}")
		return b.String()
	}
	in := `[` + object("a", 40, object("b", 40, "0")) + `,` + object("b", 40, "0") + `]`
	var d DuplicateScanner
	if got, ok := d.First(Checked{[]byte(in)}); ok {
		t.Fatalf("First found %+v in objects whose names are all distinct", got)
	}
	in = object("a", 40, object("b", 39, "0")+`,"a39":1`)
	if got, ok := d.First(Checked{[]byte(in)}); !ok || got.Name != "a39" || got.Depth != 0 {
		t.Fatalf("First = %+v %v, want a39 at depth 0", got, ok)
	}
}

func TestDuplicateScannerShallow(t *testing.T) {
	shallow := DuplicateScanner{Shallow: true}
	if got, ok := shallow.First(Checked{[]byte(`{"id":1,"params":{"x":1,"x":2,"a":[{"y":1,"y":2}]}}`)}); ok {
		t.Errorf("Shallow read a member's value: %+v", got)
	}
	if got, ok := shallow.First(Checked{[]byte(`{"id":1,"params":{"id":[1,{}]},"id":2}`)}); !ok || got.Name != "id" || got.Depth != 0 || got.At != 31 {
		t.Errorf("Shallow missed the outer id given twice: %+v %v", got, ok)
	}
}

func FuzzDuplicateScanner(f *testing.F) {
	f.Add([]byte(`{"id":1,"id":2}`))
	f.Add([]byte(`{"a":[{"x":1},{"x":1,"x":{}}]}`))
	f.Add([]byte(`{"\u0061":1,"a":2}`))
	f.Add([]byte(`"plain"`))
	var d DuplicateScanner
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := d.First(Checked{b})
		if !json.Valid(b) {
			return
		}
		want, wantOK := referenceDuplicate(b)
		if ok != wantOK || (ok && (got.Name != want.Name || got.Depth != want.Depth)) {
			t.Fatalf("First(%q) = %+v %v, encoding/json's tokens say %+v %v", b, got, ok, want, wantOK)
		}
		if ok && (got.At >= len(b) || b[got.At] != '"') {
			t.Fatalf("First(%q) = %+v: no key opens at %d", b, got, got.At)
		}
		shallow := DuplicateScanner{Shallow: true}
		if s, sok := shallow.First(Checked{b}); sok && (s.Depth != 0 || !wantOK) {
			t.Fatalf("Shallow on %q = %+v, the whole text's first being %+v %v", b, s, want, wantOK)
		} else if wantOK && want.Depth == 0 && (!sok || s != got) {
			t.Fatalf("Shallow on %q = %+v %v, want %+v", b, s, sok, got)
		}
	})
}

// referenceDuplicate finds the first duplicate name with encoding/json's
// tokenizer, which knows nothing of this package.
func referenceDuplicate(b []byte) (Duplicate, bool) {
	type frame struct {
		object, key bool
		names       map[string]bool
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return Duplicate{}, false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if delim, ok := tok.(json.Delim); ok && delim == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			name := tok.(string)
			if top.names[name] {
				return Duplicate{Name: name, Depth: len(stack) - 1}, true
			}
			top.names[name], top.key = true, false
			continue
		}
		if top != nil && top.object {
			top.key = true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, key: true, names: map[string]bool{}})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}

// BenchmarkDuplicateScanner sets the scan the judge runs on every message
// beside Valid, the check every reader of untrusted JSON pays for.
func BenchmarkDuplicateScanner(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","id":"req-7f3a","result":{"content":[{"type":"text","text":"` +
		strings.Repeat("lorem ipsum dolor sit amet ", 40) + `"}],"structuredContent":{"rows":[` +
		strings.Repeat(`{"id":1,"name":"a","tags":["x","y"],"meta":{"k":true}},`, 20) + `{}]},"isError":false}}`)
	b.Run("scanner", func(b *testing.B) {
		var d DuplicateScanner
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			d.First(Checked{msg})
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			json.Valid(msg)
		}
	})
}
