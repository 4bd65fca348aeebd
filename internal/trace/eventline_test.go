package trace

import "testing"

// The events of one block are distinct, each handed out once.
func TestEventSlabHandsOutEachEventOnce(t *testing.T) {
	var s eventSlab
	seen := map[*Event]bool{}
	for i := range 3*slabEvents + 1 {
		ev := s.newEvent()
		if seen[ev] {
			t.Fatalf("event %d handed out twice", i)
		}
		seen[ev] = true
		ev.Seq = int64(i)
	}
}
