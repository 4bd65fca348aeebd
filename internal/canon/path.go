package canon

import (
	"strconv"
	"strings"
)

// Path names a place in a JSON document: $ for the root, .key or ["key"] for
// a member, [i] for an array element.
type Path []PathElem

// PathElem is one step of a Path: a key, or an index when Key is unset.
type PathElem struct {
	Key   string
	Index int
	IsKey bool
}

// Key returns p extended by a member step. The result never shares storage
// with p, so callers may keep it.
func (p Path) Key(k string) Path {
	out := make(Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, PathElem{Key: k, IsKey: true})
}

// Index returns p extended by an element step.
func (p Path) Index(i int) Path {
	out := make(Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, PathElem{Index: i})
}

func (p Path) String() string {
	var b strings.Builder
	b.WriteByte('$')
	for _, e := range p {
		switch {
		case !e.IsKey:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.Index))
			b.WriteByte(']')
		case isPlainKey(e.Key):
			b.WriteByte('.')
			b.WriteString(e.Key)
		default:
			b.WriteByte('[')
			b.WriteString(strconv.Quote(e.Key))
			b.WriteByte(']')
		}
	}
	return b.String()
}

func isPlainKey(k string) bool {
	if k == "" {
		return false
	}
	for i, r := range k {
		letter := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}
