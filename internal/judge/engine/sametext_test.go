package engine

import (
	"bytes"
	"testing"
)

// A sameText knows again the last text it kept, to the byte, from a copy
// that the text's own bytes, overwritten after their turn, do not change;
// a text past its bound leaves the one before held, and forget holds none.
func TestSameTextKnowsTheLastTextKept(t *testing.T) {
	var memo SameText
	if memo.Is(nil) || memo.Is([]byte{}) {
		t.Fatal("an empty sameText knows a text")
	}
	short := []byte(`{"level":"info","data":"x"}`)
	long := bytes.Repeat([]byte("a"), MaxSameText+1)
	for _, step := range []struct {
		text      []byte
		kept      bool
		knownText []byte
	}{
		{short, true, short},
		{[]byte(`{}`), true, []byte(`{}`)},
		{long, false, []byte(`{}`)},
		{long[:MaxSameText], true, long[:MaxSameText]},
		{[]byte{}, true, nil},
	} {
		text := bytes.Clone(step.text)
		if kept := memo.Keep(text, MaxSameText); kept != step.kept {
			t.Fatalf("keep of %d bytes: %v, want %v", len(text), kept, step.kept)
		}
		copy(text, bytes.Repeat([]byte("#"), len(text))) // the message's bytes, reused
		if !memo.Is(step.knownText) || memo.Is(text) && len(text) > 0 {
			t.Fatalf("after keeping %d bytes, the text known is not the one last kept", len(text))
		}
	}
	memo.Forget()
	if memo.Is(nil) {
		t.Fatal("a forgotten text is still known")
	}
}
