package judge

// fifoMap is a map that forgets its oldest keys past a limit, so that
// memory stays flat however long the trace; rules use it for facts only a
// recent event can still bear on (event ids, messages sent, tools listed).
type fifoMap[V any] struct {
	limit int
	m     map[string]V
	order []string
}

func newFIFO[V any](limit int) *fifoMap[V] {
	return &fifoMap[V]{limit: limit, m: map[string]V{}}
}

func (f *fifoMap[V]) get(key string) (V, bool) {
	v, ok := f.m[key]
	return v, ok
}

func (f *fifoMap[V]) put(key string, v V) {
	if _, ok := f.m[key]; !ok {
		if len(f.order) >= f.limit {
			delete(f.m, f.order[0])
			f.order = f.order[1:]
		}
		f.order = append(f.order, key)
	}
	f.m[key] = v
}

// each calls fn for every key still remembered, oldest first.
func (f *fifoMap[V]) each(fn func(string, V)) {
	for _, k := range f.order {
		if v, ok := f.m[k]; ok {
			fn(k, v)
		}
	}
}
