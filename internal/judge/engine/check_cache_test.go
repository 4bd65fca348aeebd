package engine

import (
	"strconv"
	"testing"
)

// Whatever the cache keeps or drops, run.result hands every spelling of an
// id, constant or built at run time, the one result the id owns.
func TestCheckCacheKeepsResultsPerID(t *testing.T) {
	r := &run{Results: map[string]*checkResult{}}
	var ids []string
	for i := range 2000 {
		ids = append(ids, "check."+strconv.Itoa(i%700)) // repeated contents at new addresses
	}
	ids = append(ids, "ping.empty-result", "progress.token-active", "ping.empty-result")
	for round := range 3 {
		for _, id := range ids {
			got := r.result(id)
			if want := r.Results[id]; got != want || got == nil {
				t.Fatalf("round %d, %q: result %p, the run holds %p", round, id, got, want)
			}
		}
	}
	if len(r.Results) != 702 {
		t.Errorf("%d results, want one per distinct id (702)", len(r.Results))
	}
}
