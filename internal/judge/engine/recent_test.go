package engine

import (
	"slices"
	"testing"
)

// TestRecentKeepsTheLastWindow holds the ring to a window slid over a
// slice: the same entries, oldest first, and the newest match found.
func TestRecentKeepsTheLastWindow(t *testing.T) {
	var r Recent[int]
	var window []int
	for v := range 3*recentSize + 7 {
		r.Add(v)
		if window = append(window, v); len(window) > recentSize {
			window = window[1:]
		}
		var got []int
		r.Each(func(e *int) { got = append(got, *e) })
		if !slices.Equal(got, window) {
			t.Fatalf("after %d adds: ring holds %v, want %v", v+1, got, window)
		}
		for _, class := range []int{v % 100, (v + 50) % 100} {
			want := -1
			for _, w := range window {
				if w%100 == class {
					want = w // the last in the window
				}
			}
			found := r.Newest(func(e *int) bool { return *e%100 == class })
			if found == nil && want >= 0 || found != nil && *found != want {
				t.Fatalf("after %d adds: newest of class %d = %v, want %d", v+1, class, found, want)
			}
		}
	}
}
