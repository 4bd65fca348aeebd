package rawjson

import (
	"bytes"
	"testing"
)

// TrimRightSpace trims what bytes.TrimRight trims given JSON's four
// whitespace bytes, and nothing else (not a form feed or a vertical tab,
// which JSON does not count).
func TestTrimRightSpaceTrimsJSONWhitespace(t *testing.T) {
	for _, s := range []string{"", " ", "\t\r\n ", "{} \n", "1\f", "1\v ", "a b", " \x00"} {
		if got, want := TrimRightSpace([]byte(s)), bytes.TrimRight([]byte(s), " \t\r\n"); !bytes.Equal(got, want) {
			t.Errorf("TrimRightSpace(%q) = %q, want %q", s, got, want)
		}
	}
}
