package judge

import (
	"encoding/json"
)

// isListMethod reports whether method is a list operation that paginates.
// Rules ask of every message: a switch, not a map, answers without hashing.
func isListMethod(method string) bool {
	switch method {
	case "tools/list", "prompts/list", "resources/list", "resources/templates/list":
		return true
	}
	return false
}

// rpcErrorCode returns the integer code of an error response.
func rpcErrorCode(m *Msg) (int64, bool) {
	if m.Kind != KindError {
		return 0, false
	}
	return m.Error.IntCode()
}

// isInputRequired reports whether m is a result that is an
// InputRequiredResult.
func (m *Msg) isInputRequired() bool {
	return m.Kind == KindResult && m.mayBeInputRequired() && resultTypeOf(m.Result) == "input_required"
}

// resultTypeOf returns a result's resultType, "complete" when absent (as the
// 2026-07-28 base protocol reads a result without one).
func resultTypeOf(result json.RawMessage) string {
	if t, ok := stringField(result, "resultType"); ok {
		return t
	}
	return "complete"
}

// boundedKeys remembers the most recent keys added, forgetting the oldest
// past its limit, so per-session memory stays flat.
type boundedKeys struct {
	limit int
	order []string
	set   map[string]bool
	// Forgot is set once a key was dropped: a miss may then be a key
	// forgotten rather than one never added.
	Forgot bool
}

func newBoundedKeys(limit int) *boundedKeys {
	return &boundedKeys{limit: limit, set: map[string]bool{}}
}

func (b *boundedKeys) add(key string) {
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

func (b *boundedKeys) has(key string) bool { return b.set[key] }

// jsonQuote writes s as a JSON string, for messages.
func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// errorCodeText is an error response's code as written, for messages.
func errorCodeText(m *Msg) string {
	if m.Error == nil || m.Error.Code == nil {
		return "(none)"
	}
	return string(m.Error.Code)
}
