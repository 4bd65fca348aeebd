package message

import "testing"

func TestNotUnicode(t *testing.T) {
	for _, c := range []struct {
		in   string
		at   int
		what string
	}{
		{`{"s":"plain"}`, -1, ""},
		{`{"s":"\ud83d\ude00 \u00e9 \\ud800"}`, -1, ""},
		{`{"s":"caf` + "\xff" + `"}`, 9, "a byte that is not UTF-8"},
		{`{"s":"\ud800"}`, 6, "a lone surrogate escape"},
		{`{"s":"\udc00\ud800"}`, 6, "a lone surrogate escape"},
		{`{"s":"\ud800\u0041"}`, 6, "a lone surrogate escape"},
		{`{"s":"\ud800`, 6, "a lone surrogate escape"},
	} {
		at, what := NotUnicode([]byte(c.in))
		if at != c.at || what != c.what {
			t.Errorf("notUnicode(%q) = %d %q, want %d %q", c.in, at, what, c.at, c.what)
		}
	}
}
