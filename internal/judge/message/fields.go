package message

import (
	"encoding/json"
)

// IsListMethod reports whether method is a list operation that paginates.
// Rules ask of every message: a switch, not a map, answers without hashing.
func IsListMethod(method string) bool {
	switch method {
	case "tools/list", "prompts/list", "resources/list", "resources/templates/list":
		return true
	}
	return false
}

// RPCErrorCode returns the integer code of an error response.
func RPCErrorCode(m *Msg) (int64, bool) {
	if m.Kind != KindError {
		return 0, false
	}
	return m.Error.IntCode()
}

// IsInputRequired reports whether m is a result that is an
// InputRequiredResult.
func (m *Msg) IsInputRequired() bool {
	return m.Kind == KindResult && m.MayBeInputRequired() && ResultTypeOf(m.Result) == "input_required"
}

// ResultTypeOf returns a result's resultType, "complete" when absent (as the
// 2026-07-28 base protocol reads a result without one).
func ResultTypeOf(result json.RawMessage) string {
	if t, ok := StringField(result, "resultType"); ok {
		return t
	}
	return "complete"
}

// BoundedKeys remembers the most recent keys added, forgetting the oldest
// past its limit, so per-session memory stays flat.
type BoundedKeys struct {
	limit int
	order []string
	set   map[string]bool
	// Forgot is set once a key was dropped: a miss may then be a key
	// forgotten rather than one never added.
	Forgot bool
}

func NewBoundedKeys(limit int) *BoundedKeys {
	return &BoundedKeys{limit: limit, set: map[string]bool{}}
}

func (b *BoundedKeys) Add(key string) {
	if b.set[key] {
		return
	}
	if len(b.order) >= b.limit {
		delete(b.set, b.order[0])
		b.order = b.order[1:]
		b.Forgot = true
	}
	b.order = append(b.order, key)
	b.set[key] = true
}

func (b *BoundedKeys) Has(key string) bool { return b.set[key] }

// JSONQuote writes s as a JSON string, for messages.
func JSONQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// ErrorCodeText is an error response's code as written, for messages.
func ErrorCodeText(m *Msg) string {
	if m.Error == nil || m.Error.Code == nil {
		return "(none)"
	}
	return string(m.Error.Code)
}
