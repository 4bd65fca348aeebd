package rawjson

import (
	"strings"
	"testing"
)

// FuzzChecked holds the scans of Checked text to the checking ones:
// on every text Skip finds well-formed, both find the same end, and
// iterating its members or elements gives the same keys, values and ends.
// Well-formed here is the whole text, as a payload is: a value alone may
// be followed by anything ("01" starts with the number 0).
func FuzzChecked(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !Valid(b) {
			return
		}
		n, _ := Skip(b)
		if got := skipChecked(b, skipSpace(b, 0)); got != n {
			t.Fatalf("skipChecked(%q) = %d, Skip found %d", b, got, n)
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
	checked, trusted := Members(b), Checked{b}.Members()
	sameScan(t, b, &checked, &trusted)
}

func sameElements(t *testing.T, b []byte) {
	checked, trusted := Elements(b), Checked{b}.Elements()
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
func TestCheckedStringNearTheEnd(t *testing.T) {
	for n := 0; n < 20; n++ {
		for at := 0; at <= n; at++ {
			body := strings.Repeat("a", at) + `\"` + strings.Repeat("b", n-at)
			b := []byte(`"` + body + `"`)
			want, ok := skipString(b, 0)
			if got := skipCheckedString(b, 0); !ok || got != want {
				t.Fatalf("skipCheckedString(%q) = %d, skipString %d, %v", b, got, want, ok)
			}
			if cut := b[:len(b)-1]; skipCheckedString(cut, 0) != len(cut)+1 {
				t.Fatalf("skipCheckedString(%q) = %d, want %d", cut, skipCheckedString(cut, 0), len(cut)+1)
			}
		}
	}
}

// skipCheckedContainer finds both kinds of bracket by setting bit 5 of
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

// Check takes exactly what Valid takes; Within takes a value of the text
// and refuses bytes that lie elsewhere, however alike.
func TestCheckAndWithin(t *testing.T) {
	if _, ok := Check([]byte(`{"a":1} x`)); ok {
		t.Error("Check took text that goes on past its value")
	}
	whole := []byte(` {"a":[1,2]} and more`)
	text := whole[:13]
	c, ok := Check(text)
	if !ok {
		t.Fatal("Check refused an object")
	}
	if sub, ok := c.Within(text[6:11]); !ok || string(sub.Bytes()) != "[1,2]" {
		t.Errorf("Within(a's value) = %q, %v", sub.Bytes(), ok)
	}
	if sub, ok := c.Within(text[6:11:11]); !ok || string(sub.Bytes()) != "[1,2]" {
		t.Errorf("Within(a's value, cut to its own capacity) = %q, %v", sub.Bytes(), ok)
	}
	if _, ok := c.Within([]byte("[1,2]")); ok {
		t.Error("Within took a copy that lies outside the text")
	}
	if _, ok := c.Within(whole[6:16]); ok {
		t.Error("Within took bytes that run past the text")
	}
	if string(c.TrimSpace().Bytes()) != `{"a":[1,2]}` {
		t.Errorf("TrimSpace = %q", c.TrimSpace().Bytes())
	}
}
