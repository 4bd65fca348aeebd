package engine

// Recent keeps the last recentSize values added. Once full it overwrites
// the oldest in place: a window slid by reslicing would reallocate and copy
// the whole window every time its array ran out, on every response of a
// long trace.
type Recent[T any] struct {
	entries []T
	// oldest is the index of the oldest entry once entries is full.
	oldest int
}

const recentSize = 256

func (r *Recent[T]) Add(v T) {
	if len(r.entries) < recentSize {
		r.entries = append(r.entries, v)
		return
	}
	r.entries[r.oldest] = v
	r.oldest = (r.oldest + 1) % recentSize
}

// Newest returns the most recently added entry that match accepts, nil
// when none does.
func (r *Recent[T]) Newest(match func(*T) bool) *T {
	n := len(r.entries)
	for i := 1; i <= n; i++ {
		if e := &r.entries[(r.oldest+n-i)%n]; match(e) {
			return e
		}
	}
	return nil
}

// Each calls f on every entry, oldest first.
func (r *Recent[T]) Each(f func(*T)) {
	for i := range r.entries {
		f(&r.entries[(r.oldest+i)%len(r.entries)])
	}
}
