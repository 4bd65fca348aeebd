package cli

import (
	"os"
	"runtime/debug"
)

// gcPercent is the heap growth mcpverdict lets the collector allow. Its
// live heap is small and bounded (judge state follows open requests, not
// trace length), while the trace reader allocates every event anew (the
// judge keeps slices of some past their turn, so lines are not reused):
// with Go's default of 100 a long trace is collected every few megabytes
// read. At 400, validate on 1,000,000 events took 1/1.15 of the CPU time it
// took at 200 (median ratio of seven alternating pinned rounds), for peak
// RSS of 61 to 76 MB instead of 46 to 50, still flat in trace length; by
// cachegrind (300,000 events) 11% fewer instructions. At 800 it ran more
// instructions than at 400: the fresh memory cost more than it saved.
const gcPercent = 400

// collectLessOften applies gcPercent unless GOGC says otherwise: the
// runtime has read it already, and a user who set it wants it.
func collectLessOften() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}
