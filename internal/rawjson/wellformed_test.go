package rawjson

import "testing"

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
