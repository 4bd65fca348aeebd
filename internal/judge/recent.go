package judge

// recent keeps the last recentSize values added. Once full it overwrites
// the oldest in place: a window slid by reslicing would reallocate and copy
// the whole window every time its array ran out, on every response of a
// long trace.
type recent[T any] struct {
	entries []T
	// oldest is the index of the oldest entry once entries is full.
	oldest int
}

const recentSize = 256

func (r *recent[T]) add(v T) {
	if len(r.entries) < recentSize {
		r.entries = append(r.entries, v)
		return
	}
	r.entries[r.oldest] = v
	r.oldest = (r.oldest + 1) % recentSize
}

// newest returns the most recently added entry that match accepts, nil
// when none does.
func (r *recent[T]) newest(match func(*T) bool) *T {
	n := len(r.entries)
	for i := 1; i <= n; i++ {
		if e := &r.entries[(r.oldest+n-i)%n]; match(e) {
			return e
		}
	}
	return nil
}

// each calls f on every entry, oldest first.
func (r *recent[T]) each(f func(*T)) {
	for i := range r.entries {
		f(&r.entries[(r.oldest+i)%len(r.entries)])
	}
}
