package capture

import (
	"runtime"
	"testing"
)

func TestRaiseProcsForStdioOnlyRaises(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	RaiseProcsForStdio()
	if got := runtime.GOMAXPROCS(0); got != minStdioProcs {
		t.Errorf("GOMAXPROCS from 1: %d, want %d", got, minStdioProcs)
	}
	runtime.GOMAXPROCS(minStdioProcs + 3)
	RaiseProcsForStdio()
	if got := runtime.GOMAXPROCS(0); got != minStdioProcs+3 {
		t.Errorf("GOMAXPROCS from %d: %d, want it kept", minStdioProcs+3, got)
	}
}
