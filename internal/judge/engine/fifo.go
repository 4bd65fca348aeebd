package engine

// FifoMap is a map that forgets its oldest keys past a limit, so that
// memory stays flat however long the trace; rules use it for facts only a
// recent event can still bear on (event ids, messages sent, tools listed).
type FifoMap[V any] struct {
	limit int
	M     map[string]V
	order []string
}

func NewFIFO[V any](limit int) *FifoMap[V] {
	return &FifoMap[V]{limit: limit, M: map[string]V{}}
}

func (f *FifoMap[V]) Get(key string) (V, bool) {
	v, ok := f.M[key]
	return v, ok
}

func (f *FifoMap[V]) Put(key string, v V) {
	if _, ok := f.M[key]; !ok {
		if len(f.order) >= f.limit {
			delete(f.M, f.order[0])
			f.order = f.order[1:]
		}
		f.order = append(f.order, key)
	}
	f.M[key] = v
}

// Each calls fn for every key still remembered, oldest first.
func (f *FifoMap[V]) Each(fn func(string, V)) {
	for _, k := range f.order {
		if v, ok := f.M[k]; ok {
			fn(k, v)
		}
	}
}
