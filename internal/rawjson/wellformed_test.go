package rawjson

import (
	"strings"
	"testing"
)

// FuzzWellFormed holds the scans that trust the text to the checking ones:
// on every text Skip finds well-formed, both find the same end, and
// iterating its members or elements gives the same keys, values and ends.
// Well-formed here is the whole text, as a payload is: a value alone may
// be followed by anything ("01" starts with the number 0).
func FuzzWellFormed(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !Valid(b) {
			return
		}
		n, _ := Skip(b)
		if got := skipWellFormed(b, skipSpace(b, 0)); got != n {
			t.Fatalf("skipWellFormed(%q) = %d, Skip found %d", b, got, n)
		}
		sameMembers(t, b[:n])
		sameElements(t, b[:n])
	})
}

// scan is what member and element iterations share.
type scan interface {
	Next() bool
	Value() []byte
	Valid() bool
	End() int
}

func sameMembers(t *testing.T, b []byte) {
	checked, trusted := Members(b), MembersOfWellFormed(b)
	sameScan(t, b, &checked, &trusted)
}

func sameElements(t *testing.T, b []byte) {
	checked, trusted := Elements(b), ElementsOfWellFormed(b)
	sameScan(t, b, &checked, &trusted)
}

func sameScan(t *testing.T, b []byte, checked, trusted scan) {
	for {
		more := checked.Next()
		if trusted.Next() != more {
			t.Fatalf("%q: the scans disagree on where they end", b)
		}
		if !more {
			break
		}
		if string(checked.Value()) != string(trusted.Value()) || string(keyOf(checked)) != string(keyOf(trusted)) {
			t.Fatalf("%q: %q: %q against %q: %q", b, keyOf(checked), checked.Value(), keyOf(trusted), trusted.Value())
		}
	}
	if checked.Valid() != trusted.Valid() || checked.End() != trusted.End() {
		t.Fatalf("%q: valid %v end %d against valid %v end %d", b, checked.Valid(), checked.End(), trusted.Valid(), trusted.End())
	}
}

func keyOf(s scan) []byte {
	if it, ok := s.(*Iter); ok {
		return it.Key()
	}
	return nil
}

// The trusting string scan reads the last bytes of b with the padding of a
// quote: at every length and every place of an escape it must end where
// the checking scan ends, and a string cut short one past b, as it did
// when it read those bytes one at a time.
func TestStringWellFormedNearTheEnd(t *testing.T) {
	for n := 0; n < 20; n++ {
		for at := 0; at <= n; at++ {
			body := strings.Repeat("a", at) + `\"` + strings.Repeat("b", n-at)
			b := []byte(`"` + body + `"`)
			want, ok := skipString(b, 0)
			if got := skipStringWellFormed(b, 0); !ok || got != want {
				t.Fatalf("skipStringWellFormed(%q) = %d, skipString %d, %v", b, got, want, ok)
			}
			if cut := b[:len(b)-1]; skipStringWellFormed(cut, 0) != len(cut)+1 {
				t.Fatalf("skipStringWellFormed(%q) = %d, want %d", cut, skipStringWellFormed(cut, 0), len(cut)+1)
			}
		}
	}
}

// skipContainerWellFormed finds both kinds of bracket by setting bit 5 of
// a byte: no other byte may turn into one of them.
func TestBit5FindsBracketsAlone(t *testing.T) {
	for c := 0; c < 256; c++ {
		opener, closer := c == '[' || c == '{', c == ']' || c == '}'
		if got := byte(c)|0x20 == '{'; got != opener {
			t.Errorf("%#x: opener %v, want %v", c, got, opener)
		}
		if got := byte(c)|0x20 == '}'; got != closer {
			t.Errorf("%#x: closer %v, want %v", c, got, closer)
		}
	}
}
