package cli

import (
	"os"
	"runtime/debug"
)

// gcPercent is the heap growth mcpverdict lets the collector allow. Its
// live heap is small and bounded (judge state follows open requests, not
// trace length), while the trace reader hands out every event and line
// anew, from blocks (the judge keeps slices of some past their turn, so
// they are not reused): with Go's default of 100 a long trace is collected
// every few megabytes read. At 400, validate on 1,000,000 events took
// 1/1.15 of the CPU time it took at 200, for peak RSS of 61 to 78 MB
// instead of 46 to 50, flat in trace length.
const gcPercent = 400

// gcPercentJudging is the heap growth for a judge run without the wire
// schema, whose live heap is 5 or 6 MB: at 800 it is collected half as
// often as at 400. The allocator's and collector's share of validate's CPU
// samples on 1,000,000 events fell from 13.9% to 10.1%, and over 30
// alternating pinned pairs on 300,000 events the run at 400 took a median
// 1.04 times the CPU time. Peak RSS on 1,000,000 events is 92 to 120 MB
// instead of 64 to 80, still flat in trace length. The wire schema keeps a
// live heap of 8 to 19 MB while it checks, which the percentage multiplies:
// at 800 its peak RSS rose to 274 MB against 156 to 173, so such a run
// stays at gcPercent.
const gcPercentJudging = 800

// collectLessOften applies gcPercent unless GOGC says otherwise: the
// runtime has read it already, and a user who set it wants it.
func collectLessOften() { setGCPercent(gcPercent) }

// collectForJudging applies gcPercentJudging to a judge run that checks
// no wire schema, unless GOGC says otherwise.
func collectForJudging(wireSchemas int) {
	if wireSchemas == 0 {
		setGCPercent(gcPercentJudging)
	}
}

func setGCPercent(percent int) {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(percent)
	}
}

// ledgerHeapLimit is the soft memory limit of ledger verify: it holds one
// block at a time, so its live heap is a few megabytes however long the
// ledger, and the limit keeps the heap growth gcPercent allows from
// showing as memory a long ledger seems to need.
const ledgerHeapLimit = 24 << 20

// holdLedgerHeap applies ledgerHeapLimit unless GOMEMLIMIT says otherwise.
func holdLedgerHeap() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(ledgerHeapLimit)
	}
}
