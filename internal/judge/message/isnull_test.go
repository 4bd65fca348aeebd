package message

import (
	"bytes"
	"testing"
)

// isNullAsTrimmed is isNull as it was written before its shortcut.
func isNullAsTrimmed(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }

var isNullCases = []string{
	"", `"`, `" null`, "n", "nul", "null", "nulL", "Null", " null", "null ", "\tnull\n", "\x0bnull\x0c",
	"\u0085null", "null\u00a0", "\u2028null\u3000", "nul\u00a0", "\u00a0nul", "null\x7f", "\x7fnull",
	`"null"`, "nulll", "null\x00", "\x00null", "nullnull", "0", `"2.0"`, "{}", "[null]",
}

func TestIsNullAgreesWithTrimming(t *testing.T) {
	for _, c := range isNullCases {
		checkIsNull(t, []byte(c))
	}
	checkIsNull(t, nil)
}

// checkIsNull holds isNull to the trimming comparison, and given, its
// shortcut for a member that opens with a quote, to its plain reading.
func checkIsNull(t *testing.T, raw []byte) {
	if got, want := IsNull(raw), isNullAsTrimmed(raw); got != want {
		t.Errorf("isNull(%q) = %v, want %v", raw, got, want)
	}
	if got, want := given(raw), raw != nil && !isNullAsTrimmed(raw); got != want {
		t.Errorf("given(%q) = %v, want %v", raw, got, want)
	}
}

func FuzzIsNull(f *testing.F) {
	for _, c := range isNullCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkIsNull(t, raw) })
}
