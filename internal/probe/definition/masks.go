package definition

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The volatile kinds a mask may declare. Each names what the value looks
// like, and the seeded value must look like it: a mask is a claim about the
// data, checked, not a blanket exclusion.
var maskKinds = map[string]func(any) bool{
	"timestamp": isTimestamp,
	"uuid":      isUUID,
	"counter":   isCounter,
	"random":    func(any) bool { return true },
}

// applyMask replaces the value at m.Field with "<KIND>", so that two
// records differing only there compare equal.
func applyMask(v any, m Mask) any {
	return replacePath(v, strings.Split(m.Field, "."), "<"+m.Kind+">")
}

func replacePath(v any, path []string, with any) any {
	if len(path) == 0 {
		if v == nil {
			return nil
		}
		return with
	}
	switch c := v.(type) {
	case map[string]any:
		child, ok := c[path[0]]
		if !ok {
			return v
		}
		out := make(map[string]any, len(c))
		for k, e := range c {
			out[k] = e
		}
		out[path[0]] = replacePath(child, path[1:], with)
		return out
	case []any:
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 || i >= len(c) {
			return v
		}
		out := append([]any(nil), c...)
		out[i] = replacePath(c[i], path[1:], with)
		return out
	}
	return v
}

// LookupPath returns the value at a dot path.
func LookupPath(v any, path string) (any, bool) {
	for _, seg := range strings.Split(path, ".") {
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[seg]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func isUUID(v any) bool {
	s, ok := v.(string)
	return ok && uuidPattern.MatchString(s)
}

// timestampLayouts are the textual timestamps a mask recognises: RFC 3339
// (with or without fractions) and SQLite's datetime() forms.
var timestampLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02 15:04:05.000", "2006-01-02T15:04:05", "2006-01-02"}

// isTimestamp accepts a textual timestamp or a number (epoch seconds or
// milliseconds).
func isTimestamp(v any) bool {
	if isNumber(v) {
		return true
	}
	s, ok := v.(string)
	if !ok {
		return false
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// isCounter accepts an integer, as a number or in decimal digits.
func isCounter(v any) bool {
	switch n := v.(type) {
	case json.Number:
		_, err := n.Int64()
		return err == nil
	case string:
		_, err := strconv.ParseInt(n, 10, 64)
		return err == nil
	}
	return false
}

// isNumber accepts a JSON number or a SQLite real cell.
func isNumber(v any) bool {
	switch n := v.(type) {
	case json.Number:
		return true
	case map[string]any:
		_, ok := n["real"]
		return ok && len(n) == 1
	}
	return false
}
