package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

func Deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// AnswersClientRequest reports whether m is the server's first answer to a
// request of the client (the initialize of a legacy client excepted).
func AnswersClientRequest(m *message.Msg) bool {
	return (m.Kind == message.KindResult || m.Kind == message.KindError) && m.From == spec.Server && m.Request != nil &&
		!m.Answered && m.Request.Method != "initialize"
}

func AnswerName(m *message.Msg) string {
	if m.Kind == message.KindResult {
		return "a result"
	}
	if m.Error != nil {
		return "error " + string(m.Error.Code)
	}
	return "an error"
}

func Quote(s string) string { return `"` + s + `"` }

func QuoteIDs(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// DescribeAnswer says how a response answered, for messages.
func DescribeAnswer(m *message.Msg) string {
	if m.Kind == message.KindError {
		return "an error with code " + message.ErrorCodeText(m)
	}
	return "a result"
}

// ObjectKeys lists a JSON object's keys in order and returns the first
// key that occurs twice (decoding into a map would silently keep one).
func ObjectKeys(raw json.RawMessage) (keys []string, dup string) {
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

func IsStringOrInteger(id []byte) bool {
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

func Describe(m *message.Msg) string {
	switch {
	case m.Method != "":
		return `"` + m.Method + `"`
	case m.ID != nil:
		return "with id " + string(m.ID)
	}
	return ""
}

var CoreResultTypes = map[string]bool{"complete": true, "input_required": true}

// RequestName names the request a response answers, for messages.
func RequestName(m *message.Msg) string {
	if m.Request == nil {
		return "id " + string(m.ID)
	}
	return `"` + m.Request.Method + `" (id ` + string(m.ID) + ")"
}

func OrAbsent(raw json.RawMessage) string {
	if raw == nil {
		return "absent"
	}
	return string(raw)
}
