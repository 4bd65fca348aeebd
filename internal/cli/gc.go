package cli

import (
	"os"
	"runtime/debug"
)

// gcPercent is the heap growth mcpverdict lets the collector allow. The
// trace reader hands out every event and line anew, and what the judge
// keeps past a message's turn is a copy of its own, so the live heap
// follows open requests and exchanges, not trace length: at Go's default
// of 100 a long trace would be collected every few megabytes read for
// little memory saved. The trade of CPU time against peak RSS is measured
// by scripts/bench-judge and scripts/bench-compare.
const gcPercent = 400

// gcPercentJudging is the heap growth for a judge run without the wire
// schema, whose live heap is smaller still, so it is collected less often.
// A wire-schema run keeps a larger live heap while it checks, which the
// percentage multiplies, so it stays at gcPercent.
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
