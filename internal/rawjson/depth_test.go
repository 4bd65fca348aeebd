package rawjson

import (
	"strings"
	"testing"
)

func TestShallowEnough(t *testing.T) {
	nest := func(n int) []byte { return []byte(strings.Repeat("[", n) + strings.Repeat("]", n)) }
	for _, tt := range []struct {
		text []byte
		want bool
	}{
		{nest(MaxDepth), true},
		{nest(MaxDepth + 1), false},
		{[]byte(`{"a":"` + strings.Repeat("[", 2*MaxDepth) + `"}`), true}, // brackets inside a string
		{[]byte(`["\"` + strings.Repeat("{", 2*MaxDepth) + `"]`), true},   // after an escaped quote
		{[]byte(`{"a":[1,{"b":[]}]}`), true},
	} {
		if got := ShallowEnough(tt.text); got != tt.want {
			t.Errorf("ShallowEnough(%.40s…) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
