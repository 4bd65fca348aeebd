package judge

import (
	"bytes"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// rawText is a string member kept as written, decoded only when asked:
// the text of a tool result's block is mostly compared with the result's
// structuredContent, which needs no decoded copy of it. It is set as a
// *string field is: absent and null leave it unset.
type rawText struct {
	// raw is the JSON string, quotes included; nil when unset.
	raw []byte
}

func (t rawText) isSet() bool { return t.raw != nil }

// value is the string as Decode gives it.
func (t rawText) value() string { return stringValue(t.raw) }

// setRawText sets *dst as decoding into a *string field would.
func setRawText(dst *rawText, value []byte) readOutcome {
	switch rawjson.Kind(value) {
	case 'n':
		*dst = rawText{}
		return readDecoded
	case '"':
		*dst = rawText{raw: value}
		return readDecoded
	}
	return readRefused
}

// UnmarshalJSON lets Decode fill a rawText as it filled a *string.
func (t *rawText) UnmarshalJSON(value []byte) error {
	if setRawText(t, value) != readDecoded {
		return errNotString
	}
	return nil
}

// equals reports whether the string's value is s. Text of valid UTF-8
// whose escapes are short ones is compared as it stands; anything else is
// decoded first.
func (t rawText) equals(want []byte) bool {
	inner := t.raw[1 : len(t.raw)-1]
	if !utf8.Valid(inner) {
		return t.value() == string(want)
	}
	s := want // what is left to compare after the escapes read so far
	for {
		i := bytes.IndexByte(inner, '\\')
		if i < 0 {
			return bytes.Equal(inner, s)
		}
		if i+1 >= len(inner) || len(s) <= i || !bytes.Equal(inner[:i], s[:i]) {
			return false
		}
		c, ok := shortEscape(inner[i+1])
		if !ok {
			// The decoded whole against the whole: s no longer is.
			return t.value() == string(want)
		}
		if s[i] != c {
			return false
		}
		inner, s = inner[i+2:], s[i+1:]
	}
}
