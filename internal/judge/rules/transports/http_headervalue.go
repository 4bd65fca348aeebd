package transports

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"strings"
	"unicode/utf8"
)

// The Base64 sentinel that wraps a header value a plain ASCII header cannot
// carry (streamable HTTP, Value Encoding). The markers are case-sensitive.
const (
	sentinelPrefix = "=?base64?"
	sentinelSuffix = "?="
)

// isSentinel reports whether v has the exact (lowercase) sentinel shape.
func isSentinel(v string) bool {
	return len(v) >= len(sentinelPrefix)+len(sentinelSuffix) &&
		strings.HasPrefix(v, sentinelPrefix) && strings.HasSuffix(v, sentinelSuffix)
}

// looksSentinel reports whether v has the sentinel shape in any case.
func looksSentinel(v string) bool { return isSentinel(strings.ToLower(v)) }

// decodeHeader returns the value a mirrored header carries: the sentinel's
// Base64 decoded, or the value itself. ok is false for a sentinel that does
// not decode to UTF-8 text.
func decodeHeader(v string) (value string, encoded, ok bool) {
	if !isSentinel(v) {
		return v, false, true
	}
	inner := v[len(sentinelPrefix) : len(v)-len(sentinelSuffix)]
	b, err := base64.StdEncoding.DecodeString(inner)
	if err != nil || !utf8.Valid(b) {
		return "", true, false
	}
	return string(b), true, true
}

// needsBase64 reports whether a value cannot travel as a plain ASCII
// header value: non-ASCII or control characters, or whitespace at either end.
func needsBase64(v string) bool {
	if v != strings.Trim(v, " \t") {
		return true
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] >= 0x7f {
			return true
		}
	}
	return false
}

// invalidHeaderChars reports whether a recorded header value holds bytes
// HTTP does not allow in a field value (RFC 9110: visible ASCII, space, tab).
func invalidHeaderChars(v string) bool {
	for i := 0; i < len(v); i++ {
		if (v[i] < 0x20 && v[i] != '\t') || v[i] >= 0x7f {
			return true
		}
	}
	return false
}

// headerText converts a JSON value to the text its mirrored header carries:
// strings as they are, integers in decimal, booleans in lower case. ok is
// false for null and for values that are not mirrored (numbers with a
// fraction, objects, arrays).
func headerText(raw json.RawMessage) (text string, integer, ok bool) {
	raw = bytes.TrimSpace(raw)
	var str string
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", false, false
	case raw[0] == '"':
		err := json.Unmarshal(raw, &str)
		return str, false, err == nil
	case string(raw) == "true" || string(raw) == "false":
		return string(raw), false, true
	}
	n, isInt := jsonInteger(raw)
	if !isInt {
		return "", false, false
	}
	return n.String(), true, true
}

// jsonInteger parses a JSON number whose value is an integer (42, 42.0, 4.2e1).
func jsonInteger(raw json.RawMessage) (*big.Int, bool) {
	f, _, err := big.ParseFloat(string(raw), 10, 256, big.ToNearestEven)
	if err != nil || !f.IsInt() {
		return nil, false
	}
	n, _ := f.Int(nil)
	return n, true
}

// numericEqual reports whether a header's text and a JSON number name the
// same integer, however each is written.
func numericEqual(header string, raw json.RawMessage) bool {
	h, okH := jsonInteger(json.RawMessage(header))
	b, okB := jsonInteger(raw)
	return okH && okB && h.Cmp(b) == 0
}

// safeInteger reports whether an integer is within JavaScript's safe range.
func safeInteger(raw json.RawMessage) bool {
	n, ok := jsonInteger(raw)
	limit := big.NewInt(1<<53 - 1)
	return ok && n.CmpAbs(limit) <= 0
}
