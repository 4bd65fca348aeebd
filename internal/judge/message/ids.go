package message

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// IDSet remembers every request id a party has used in a session. Integer
// ids, which real clients issue in increasing order, are kept as ranges so
// memory stays flat however long the session; other ids are kept as they are.
type IDSet struct {
	ranges []idRange
	other  map[string]struct{}
}

type idRange struct{ lo, hi int64 }

// Add records key and reports whether it had been used before.
func (s *IDSet) Add(key string) (seen bool) {
	if n, ok := intKey(key); ok {
		return s.addInt(n)
	}
	if s.other == nil {
		s.other = map[string]struct{}{}
	}
	if _, seen = s.other[key]; !seen {
		s.other[key] = struct{}{}
	}
	return seen
}

func intKey(key string) (int64, bool) {
	digits, ok := strings.CutPrefix(key, "n:")
	if !ok {
		return 0, false
	}
	return rawjson.Int64([]byte(digits))
}

func (s *IDSet) addInt(n int64) bool {
	if k := len(s.ranges); k > 0 && s.ranges[k-1].hi+1 == n {
		s.ranges[k-1].hi = n // the common case: the next id in sequence
		return false
	}
	i := sort.Search(len(s.ranges), func(i int) bool { return s.ranges[i].hi >= n })
	if i < len(s.ranges) && s.ranges[i].lo <= n {
		return true
	}
	s.insert(i, n)
	return false
}

// insert adds n before ranges[i], merging with neighbours it touches.
func (s *IDSet) insert(i int, n int64) {
	joinPrev := i > 0 && s.ranges[i-1].hi+1 == n
	joinNext := i < len(s.ranges) && s.ranges[i].lo-1 == n
	switch {
	case joinPrev && joinNext:
		s.ranges[i-1].hi = s.ranges[i].hi
		s.ranges = append(s.ranges[:i], s.ranges[i+1:]...)
	case joinPrev:
		s.ranges[i-1].hi = n
	case joinNext:
		s.ranges[i].lo = n
	default:
		s.ranges = append(s.ranges, idRange{})
		copy(s.ranges[i+1:], s.ranges[i:])
		s.ranges[i] = idRange{n, n}
	}
}

// Contains reports whether key was added before.
func (s *IDSet) Contains(key string) bool {
	if n, ok := intKey(key); ok {
		i := sort.Search(len(s.ranges), func(i int) bool { return s.ranges[i].hi >= n })
		return i < len(s.ranges) && s.ranges[i].lo <= n
	}
	_, ok := s.other[key]
	return ok
}

// IDKeys hands out the keys of recently seen ids (and progress tokens)
// again instead of building each anew: a request's id comes back on its
// response, a token on every progress notification. Slots are few and
// overwritten on collision, so memory stays flat.
type IDKeys struct {
	slots [256]string
	keys  keyBlocks
}

// Key returns idKey(raw). A nil cache, or an id whose key is not its own
// text as written (a string with escapes or non-ASCII bytes), builds it.
func (c *IDKeys) Key(raw json.RawMessage) string {
	if raw == nil {
		return "" // a notification's: no id
	}
	prefix, text, ok := plainIDText(raw)
	if c == nil || !ok {
		return IDKey(raw)
	}
	slot := &c.slots[textHash(text)%uint32(len(c.slots))]
	if k := *slot; len(k) == len(prefix)+len(text) && k[:len(prefix)] == prefix && k[len(prefix):] == string(text) {
		return k
	}
	*slot = c.keys.join(prefix, text)
	return *slot
}

// plainIDText splits idKey(raw) into its prefix and text when the text is
// raw's own bytes: any id that does not start with a quote, or a string
// whose every byte is printable ASCII other than a quote or a backslash,
// which decodes to itself.
func plainIDText(raw json.RawMessage) (prefix string, text []byte, ok bool) {
	if len(raw) == 0 {
		return "", nil, false
	}
	if raw[0] != '"' {
		return "n:", raw, true
	}
	if inner, ok := PlainString(raw); ok {
		return "s:", inner, true
	}
	return "", nil, false
}

// PlainString returns the text between the quotes of a JSON string that
// decodes to exactly that text: every byte printable ASCII other than a
// quote or a backslash. Any other raw, a string with escapes or non-ASCII
// bytes included, is not plain, and must be decoded.
func PlainString(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			return nil, false
		}
	}
	return inner, true
}

func textHash(b []byte) uint32 {
	h := uint32(len(b))
	for _, c := range b {
		h = h*31 + uint32(c)
	}
	return h
}

// ShownID is an id member's JSON for a finding's text, or "(none)" when
// the member is missing, so that no sentence reads "request id , which".
func ShownID(raw []byte) string {
	if len(raw) == 0 {
		return "(none)"
	}
	return string(raw)
}
