package cli

import (
	"os"
	"runtime/debug"
)

// gcPercent is the heap growth mcpverdict lets the collector allow. Its
// live heap is small and bounded (judge state follows open requests, not
// trace length), so with Go's default of 100 a long trace is collected
// every few megabytes read. At 200 the judge does 4% less work
// (cachegrind, 20,000 events) for 5 MB more peak RSS (42.6 MB against
// 38.0 on 300,000 events); 400 saves 6% for 13 MB.
const gcPercent = 200

// collectLessOften applies gcPercent unless GOGC says otherwise: the
// runtime has read it already, and a user who set it wants it.
func collectLessOften() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}
