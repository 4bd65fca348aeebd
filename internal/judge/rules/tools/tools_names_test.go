package tools

import (
	"fmt"
	"testing"
)

// firstRepeat finds the same name whether it compares names pairwise (a
// short listing) or through a map (a long one).
func TestFirstRepeatShortAndLong(t *testing.T) {
	for _, n := range []int{0, 1, 2, fewNames - 1, fewNames, fewNames + 1, 40} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprint("tool", i)
		}
		if got := firstRepeat(names); got != -1 {
			t.Errorf("%d distinct names: repeat at %d", n, got)
		}
		for first := range n {
			for again := first + 1; again < n; again++ {
				repeated := append([]string(nil), names...)
				repeated[again] = repeated[first]
				if got := firstRepeat(repeated); got != again {
					t.Errorf("%d names, %d repeated at %d: got %d", n, first, again, got)
				}
			}
		}
	}
	if got := firstRepeat([]string{"a", "b", "b", "a"}); got != 2 {
		t.Errorf("two repeats: got %d, want the first, 2", got)
	}
}
