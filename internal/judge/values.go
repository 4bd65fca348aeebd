package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/spec"
)

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// answersClientRequest reports whether m is the server's first answer to a
// request of the client (the initialize of a legacy client excepted).
func answersClientRequest(m *Msg) bool {
	return (m.Kind == KindResult || m.Kind == KindError) && m.From == spec.Server && m.Request != nil &&
		!m.Answered && m.Request.Method != "initialize"
}

func answerName(m *Msg) string {
	if m.Kind == KindResult {
		return "a result"
	}
	if m.Error != nil {
		return "error " + string(m.Error.Code)
	}
	return "an error"
}

func quote(s string) string { return `"` + s + `"` }

func quoteIDs(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// describeAnswer says how a response answered, for messages.
func describeAnswer(m *Msg) string {
	if m.Kind == KindError {
		return "an error with code " + errorCodeText(m)
	}
	return "a result"
}

// objectKeys lists a JSON object's keys in order and returns the first
// key that occurs twice (decoding into a map would silently keep one).
func objectKeys(raw json.RawMessage) (keys []string, dup string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, ""
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		k, isKey := tok.(string)
		var skip json.RawMessage
		if err != nil || !isKey || dec.Decode(&skip) != nil {
			return keys, dup
		}
		if seen[k] && dup == "" {
			dup = k
		}
		if !seen[k] {
			keys = append(keys, k)
		}
		seen[k] = true
	}
	return keys, dup
}

func isStringOrInteger(id []byte) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		return true
	}
	for i, c := range id {
		if (c < '0' || c > '9') && !(i == 0 && c == '-') {
			return false
		}
	}
	return true
}

func describe(m *Msg) string {
	switch {
	case m.Method != "":
		return `"` + m.Method + `"`
	case m.ID != nil:
		return "with id " + string(m.ID)
	}
	return ""
}

var coreResultTypes = map[string]bool{"complete": true, "input_required": true}

// requestName names the request a response answers, for messages.
func requestName(m *Msg) string {
	if m.Request == nil {
		return "id " + string(m.ID)
	}
	return `"` + m.Request.Method + `" (id ` + string(m.ID) + ")"
}

func orAbsent(raw json.RawMessage) string {
	if raw == nil {
		return "absent"
	}
	return string(raw)
}
