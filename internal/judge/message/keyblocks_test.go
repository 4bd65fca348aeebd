package message

import (
	"strings"
	"testing"
)

// Keys joined one after another, short and long, read as prefix and text
// joined, and each keeps its text however many are joined after it.
func TestKeyBlocksJoinKeysThatStayAsBuilt(t *testing.T) {
	var k keyBlocks
	var want, got []string
	for i := range 3 * keyBlockSize / 8 {
		text := strings.Repeat("x", i%(keyBlockLong+2)) + string(rune('a'+i%26))
		want = append(want, "n:"+text)
		got = append(got, k.join("n:", []byte(text)))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("key %d is %q, want %q", i, got[i], want[i])
		}
	}
	if k.join("", nil) != "" {
		t.Fatal("an empty key is not empty")
	}
}
