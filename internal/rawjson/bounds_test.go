package rawjson

import (
	"bytes"
	"slices"
	"testing"
)

// FuzzMemberBounds holds MemberBounds to ValueEnd on where a value ends
// and whether it is well-formed, and to the member iterator on the keys
// and values it notes, with whatever text comes before the object.
func FuzzMemberBounds(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s), uint8(0))
	}
	f.Add([]byte(`x{"a\u0062":1}`), uint8(1))
	f.Add([]byte(`{"é":[1,{"b":2}] , "c" : "d"}`), uint8(0))
	f.Fuzz(func(t *testing.T, b []byte, at uint8) {
		i := int(at)
		if i >= len(b) || b[i] != '{' {
			return
		}
		wantEnd, wantOK := ValueEnd(b, i, 0)
		out, end, plain, ok := MemberBounds([]uint32{7}, b, i, 0, i)
		if end != wantEnd || ok != wantOK {
			t.Fatalf("MemberBounds(%q, %d) ends at %d, %v; ValueEnd at %d, %v", b, i, end, ok, wantEnd, wantOK)
		}
		if out[0] != 7 || (!ok || !plain) && len(out) != 1 {
			t.Fatalf("MemberBounds(%q, %d) changed what it was given: %v", b, i, out)
		}
		if !ok || !plain {
			return
		}
		obj, bounds := b[i:end], out[1:]
		it := Members(obj)
		for it.Next() {
			if len(bounds) < 4 {
				t.Fatalf("MemberBounds(%q) noted fewer members than the iterator finds", obj)
			}
			key, value := obj[bounds[0]:bounds[1]], obj[bounds[2]:bounds[3]]
			if !bytes.Equal(key, it.Key()) || !bytes.Equal(value, it.Value()) {
				t.Fatalf("MemberBounds(%q) noted %q: %q where the iterator finds %q: %q", obj, key, value, it.Key(), it.Value())
			}
			bounds = bounds[4:]
		}
		if !it.Valid() || len(bounds) != 0 {
			t.Fatalf("MemberBounds(%q) noted %d members the iterator does not find (valid %v)", obj, len(bounds)/4, it.Valid())
		}
	})
}

func TestMemberBoundsOfAnObject(t *testing.T) {
	b := []byte(`"x":{ "a" : [1,2] ,"b":{"c":"}"},"d":null}tail`)
	out, end, plain, ok := MemberBounds(nil, b, 4, 0, 4)
	if !ok || !plain || string(b[4:end]) != `{ "a" : [1,2] ,"b":{"c":"}"},"d":null}` {
		t.Fatalf("MemberBounds = %v, %d, %v, %v", out, end, plain, ok)
	}
	obj := b[4:end]
	var got []string
	for n := 0; n < len(out); n += 4 {
		got = append(got, string(obj[out[n]:out[n+1]])+"="+string(obj[out[n+2]:out[n+3]]))
	}
	if want := []string{"a=[1,2]", `b={"c":"}"}`, "d=null"}; !slices.Equal(got, want) {
		t.Fatalf("members %q, want %q", got, want)
	}
	if out, _, plain, ok := MemberBounds(nil, []byte(`{"a\"":1}`), 0, 0, 0); !ok || plain || out != nil {
		t.Fatalf("an escaped key: %v, plain %v, ok %v", out, plain, ok)
	}
	if _, _, _, ok := MemberBounds(nil, []byte(`{"a":1,}`), 0, 0, 0); ok {
		t.Fatal("a trailing comma passed")
	}
}
