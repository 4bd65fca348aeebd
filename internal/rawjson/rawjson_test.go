package rawjson

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var samples = []string{
	`{}`, ` { } `, `{"a":1}`, `{"a" : 1 , "b" : [1, {"c":"}"}] }`, `{"a":1,"a":2}`,
	`{"a\"b":"x\\y","\u0061":true}`, `{"a":1,}`, `{,}`, `{"a"}`, `{"a":}`, `{"a":1 "b":2}`,
	`[1,2]`, `[]`, `[1,]`, `"x"`, `"\q"`, `"\u12"`, "\"a\x01\"", `01`, `-0`, `-`, `1.`, `1.5e+3`, `1e`,
	`true`, `tru`, `null`, `nul`, `false`, `{"a":1}x`, `{"a":{"b":[true,false,null,-1.25E-3]}}`,
	"\"\xff\"", "{\"\xc5\":0}", `{"":0}`, `{"a":"\ud800"}`, ``, ` `, `{`, `{"a":[`,
}

func FuzzValid(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

// FuzzMembers holds Members to what decoding into a map of raw values
// gives: the same keys, the last value of a repeated key, and failure on
// the same texts.
func FuzzMembers(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want map[string]json.RawMessage
		wantOK := json.Unmarshal(b, &want) == nil && want != nil
		got := map[string]json.RawMessage{}
		it := Members(b)
		for it.Next() {
			got[string(it.Key())] = it.Value()
			if !it.KeyIs(string(it.Key())) {
				t.Fatalf("KeyIs(%q) is false on its own key", it.Key())
			}
		}
		gotOK := it.Valid() && skipSpace(b, it.End()) == len(b)
		if gotOK != wantOK {
			t.Fatalf("Members(%q) valid %v, encoding/json says %v", b, gotOK, wantOK)
		}
		if !gotOK {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("Members(%q) found %d keys, encoding/json %d", b, len(got), len(want))
		}
		for k, v := range want {
			if !bytes.Equal(got[k], v) {
				t.Fatalf("Members(%q)[%q] = %q, encoding/json %q", b, k, got[k], v)
			}
		}
	})
}

func TestKind(t *testing.T) {
	for in, want := range map[string]byte{` {"a":1}`: '{', "\n[": '[', `"x"`: '"', ``: 0, `  `: 0, `-1`: '-'} {
		if got := Kind([]byte(in)); got != want {
			t.Errorf("Kind(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSkipStopsAtTheValue(t *testing.T) {
	n, ok := Skip([]byte(` {"a":[1,"]"]} ,"b"`))
	if !ok || n != 14 {
		t.Fatalf("Skip = %d, %v; want 14, true", n, ok)
	}
}

// FuzzElements holds Elements to what decoding into a slice of raw values
// gives.
func FuzzElements(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want []json.RawMessage
		wantOK := json.Unmarshal(b, &want) == nil && want != nil
		var got []json.RawMessage
		e := Elements(b)
		for e.Next() {
			got = append(got, e.Value())
		}
		if gotOK := e.Valid() && skipSpace(b, e.End()) == len(b); gotOK != wantOK {
			t.Fatalf("Elements(%q) valid %v, encoding/json says %v", b, gotOK, wantOK)
		}
		if wantOK && len(got) != len(want) {
			t.Fatalf("Elements(%q) found %d elements, encoding/json %d", b, len(got), len(want))
		}
		for i := range got {
			if wantOK && !bytes.Equal(got[i], want[i]) {
				t.Fatalf("Elements(%q)[%d] = %q, encoding/json %q", b, i, got[i], want[i])
			}
		}
	})
}

// Strings are scanned eight bytes at a time; every special byte must be
// found wherever it falls in a word.
func TestSpecialBytesAnywhereInAString(t *testing.T) {
	for n := 0; n < 40; n++ {
		for at := 0; at < n; at++ {
			for _, special := range []string{`"`, `\`, `\n`, "\x1f", "\x00", "\x7f", "\xff", `\u00e9`} {
				body := []byte(`"` + strings.Repeat("a", at) + special + strings.Repeat("b", n-at) + `"`)
				if got, want := Valid(body), json.Valid(body); got != want {
					t.Fatalf("Valid(%q) = %v, encoding/json says %v", body, got, want)
				}
			}
		}
	}
}

// FuzzUnquote holds Unquote to decoding into a string.
func FuzzUnquote(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want string
		wantOK := Kind(b) == '"' && json.Unmarshal(b, &want) == nil
		got, gotOK := Unquote(b)
		if gotOK != wantOK || got != want {
			t.Fatalf("Unquote(%q) = %q, %v; encoding/json %q, %v", b, got, gotOK, want, wantOK)
		}
	})
}

func TestMember(t *testing.T) {
	for _, c := range []struct{ obj, name, want string }{
		{`{"a":1,"b":[2],"a":3}`, "a", "3"},
		{`{"a":1}`, "b", ""},
		{`{"\u0061":1}`, "a", "1"},
		{`{"a":1,}`, "a", ""},
		{`[1]`, "a", ""},
	} {
		if got := Member([]byte(c.obj), c.name); string(got) != c.want {
			t.Errorf("Member(%s, %q) = %q, want %q", c.obj, c.name, got, c.want)
		}
	}
}

// Nesting is refused past encoding/json's limit, where a recursive scan
// would otherwise run the stack out on a hostile trace line.
func TestNestingLimitMatchesEncodingJSON(t *testing.T) {
	for _, depth := range []int{MaxDepth - 1, MaxDepth, MaxDepth + 1, 50 * MaxDepth} {
		for _, open := range []string{"[", `{"a":`} {
			closer := "]"
			if open != "[" {
				closer = "}"
			}
			text := []byte(strings.Repeat(open, depth) + "1" + strings.Repeat(closer, depth))
			want := json.Valid(text)
			if got := Valid(text); got != want {
				t.Errorf("depth %d of %s: Valid = %v, encoding/json says %v", depth, open, got, want)
			}
			members := Members(text)
			for members.Next() {
			}
			elems := Elements(text)
			for elems.Next() {
			}
			if open == "[" && elems.Valid() != want || open != "[" && members.Valid() != want {
				t.Errorf("depth %d of %s: the iterators disagree with encoding/json (%v)", depth, open, want)
			}
		}
	}
}

// The word-at-a-time scans must stop where a byte-by-byte scan stops, for
// every byte value at every place in a word (the tricks are exact only for
// the first special byte, and bytes near 0x20 and 0x22 are the edges).
func TestPlainRunsStopAtEveryByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		for at := 0; at < 16; at++ {
			b := []byte(strings.Repeat("a", 16))
			b[at] = byte(c)
			plain := c != '"' && c != '\\' && c >= 0x20
			want, wantASCII := 16, 16
			if !plain {
				want = at
			}
			if !plain || c >= 0x80 {
				wantASCII = at
			}
			if got := plainRun(b, 0); got != want {
				t.Fatalf("plainRun(%q) = %d, want %d", b, got, want)
			}
			if got := plainASCIIRun(b, 0); got != wantASCII {
				t.Fatalf("plainASCIIRun(%q) = %d, want %d", b, got, wantASCII)
			}
		}
	}
}
