package message

import (
	"bytes"
	"strings"
	"testing"
)

// rareNeedleTexts are the needles the judge searches message text for.
var rareNeedleTexts = []string{`"_meta"`, `"input_required"`, `"inputResponses"`, `"requestState"`, `Schema"`, `x`, `"`, `__`}

func TestRareNeedleAgreesWithContains(t *testing.T) {
	texts := []string{
		``, `_`, `"_meta`, `_meta"`, `"_meta"`, `{"_meta":{}}`, `{"a":"_meta","_me":"ta"}`,
		`{"resultType":"input_required"}`, `"input_required`, `input_required"`, `"input__required"`,
		`{"inputSchema":{},"outputSchema":{}}`, `{"requestState":"s","inputResponses":{}}`,
		strings.Repeat("_", 300) + `"_meta"`, strings.Repeat(`"_meta`, 100), strings.Repeat("S", 500) + `Schema"`,
		strings.Repeat(`a"`, 200) + `"input_required"` + strings.Repeat("_", 50),
		strings.Repeat("__", 100) + "x",
	}
	for _, text := range texts {
		for _, needle := range rareNeedleTexts {
			if got, want := NewRareNeedle(needle).In([]byte(text)), bytes.Contains([]byte(text), []byte(needle)); got != want {
				t.Errorf("needle %q in %q: %v, bytes.Contains says %v", needle, text, got, want)
			}
		}
	}
}

func TestRarestBytePrefersUnderscoreThenCapitals(t *testing.T) {
	for needle, want := range map[string]int{`"_meta"`: 1, `"inputResponses"`: 6, `Schema"`: 0, `"abc"`: 1, `""`: 0} {
		if got := rarestByte([]byte(needle)); got != want {
			t.Errorf("rarestByte(%q) = %d, want %d", needle, got, want)
		}
	}
}

// FuzzRareNeedle holds a needle's search to bytes.Contains.
func FuzzRareNeedle(f *testing.F) {
	for _, needle := range rareNeedleTexts {
		f.Add([]byte(`{"a":"_meta","_meta":{"x":1}}`), []byte(needle))
	}
	f.Add([]byte(strings.Repeat("_", 100)+`"_meta"`), []byte(`"_meta"`))
	f.Fuzz(func(t *testing.T, text, needle []byte) {
		n := RareNeedle{Text: needle, pivot: rarestByte(needle)}
		if got, want := n.In(text), bytes.Contains(text, needle); got != want {
			t.Fatalf("needle %q in %q: %v, bytes.Contains says %v", needle, text, got, want)
		}
	})
}
