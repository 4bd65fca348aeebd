package trace

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// checkCompactsLikeEncodingJSON fails t unless appendCompact and
// json.Compact agree on src: both refuse it, or both write the same bytes.
func checkCompactsLikeEncodingJSON(t *testing.T, src []byte) {
	t.Helper()
	var want bytes.Buffer
	wantErr := json.Compact(&want, src)
	got, ok := appendCompact([]byte("kept"), src)
	if ok != (wantErr == nil) {
		t.Fatalf("appendCompact ok = %v, json.Compact error %v, for %q", ok, wantErr, src)
	}
	if ok && string(got) != "kept"+want.String() {
		t.Fatalf("appendCompact wrote %q, json.Compact %q", got[4:], want.Bytes())
	}
}

var compactSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}],"isError":false}}`,
	" {\n\t\"a\" : [ 1 , -2.5e+3 , 0 , true , false , null , \"x y\\n\\u00e9\\\"\" ] ,\r\n \"b\" : { } , \"c\" : [ ] } \n",
	`[]`, `{}`, `[[[]]]`, `"s"`, `0`, `-0.0e0`, `1E5`, `true`, `null`,
	"\"\xff\xfe\x7f\"", `"\/\b\f\n\r\t\uD800"`,
	``, ` `, `{`, `}`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `[1 2]`, `01`, `1.`, `.5`, `-`, `1e`, `+1`,
	`tru`, `nul`, `truex`, `"\x"`, `"\u12"`, "\"a\tb\"", `"unterminated`, `{}{}`, `[] x`, `{"a":}`, `[,1]`,
}

func TestAppendCompactMatchesEncodingJSON(t *testing.T) {
	for _, src := range compactSeeds {
		checkCompactsLikeEncodingJSON(t, []byte(src))
	}
}

// TestAppendCompactNestingLimit: encoding/json refuses more than 10000
// levels of nesting; so must the recorder, and without recursing.
func TestAppendCompactNestingLimit(t *testing.T) {
	for _, depth := range []int{maxDepth, maxDepth + 1, 1 << 20} {
		for _, shape := range [][2]string{{"[", "]"}, {`{"a":`, "}"}} {
			inner := "1"
			if depth%2 == 0 {
				inner = "[]"
			}
			src := strings.Repeat(shape[0], depth-1) + inner + strings.Repeat(shape[1], depth-1)
			checkCompactsLikeEncodingJSON(t, []byte(src))
		}
	}
}

// FuzzAppendCompact holds appendCompact to json.Compact on any bytes.
func FuzzAppendCompact(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkCompactsLikeEncodingJSON(t, src) })
}

// BenchmarkAppendCompact compares appendCompact with json.Compact on a
// small message and on a 64 KiB tool result.
func BenchmarkAppendCompact(b *testing.B) {
	for name, src := range map[string][]byte{
		"small": []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}}`),
		"64KiB": []byte(`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"` + strings.Repeat(`lorem \"ipsum\" dolor `, 64<<10/22) + `"}]}}`),
	} {
		dst := make([]byte, 0, len(src))
		b.Run(name+"/appendCompact", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				dst, _ = appendCompact(dst[:0], src)
			}
		})
		b.Run(name+"/json.Compact", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				_ = json.Compact(&buf, src)
			}
		})
	}
}
