package cli

import (
	"os"
	"runtime/debug"
	"testing"
)

// A judge run without the wire schema lets the heap grow further than
// other runs, and GOGC, when set, has the last word.
func TestCollectorPaceFollowsTheRun(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "") // restored after the test
	if err := os.Unsetenv("GOGC"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		set  func()
		want int
	}{
		{"any command", collectLessOften, gcPercent},
		{"judging with wire schemas", func() { collectForJudging(3) }, 100},
		{"judging alone", func() { collectForJudging(0) }, gcPercentJudging},
	}
	for _, tc := range cases {
		debug.SetGCPercent(100)
		tc.set()
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("%s: GC percent %d, want %d", tc.name, got, tc.want)
		}
	}
	t.Setenv("GOGC", "100")
	collectForJudging(0)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent %d, want GOGC's 100", got)
	}
}
