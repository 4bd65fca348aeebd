package message

import (
	"bytes"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// RawText is a string member kept as written, decoded only when asked:
// the text of a tool result's block is mostly compared with the result's
// structuredContent, which needs no decoded copy of it. It is set as a
// *string field is: absent and null leave it unset.
type RawText struct {
	// Raw is the JSON string, quotes included; nil when unset.
	Raw []byte
}

func (t RawText) IsSet() bool { return t.Raw != nil }

// Value is the string as Decode gives it.
func (t RawText) Value() string { return stringValue(t.Raw) }

// setRawText sets *dst as decoding into a *string field would.
func setRawText(dst *RawText, value []byte) ReadOutcome {
	switch rawjson.Kind(value) {
	case 'n':
		*dst = RawText{}
		return ReadDecoded
	case '"':
		*dst = RawText{Raw: value}
		return ReadDecoded
	}
	return readRefused
}

// UnmarshalJSON lets Decode fill a rawText as it filled a *string.
func (t *RawText) UnmarshalJSON(value []byte) error {
	if setRawText(t, value) != ReadDecoded {
		return errNotString
	}
	return nil
}

// Equals reports whether the string's value is s. Text of valid UTF-8
// whose escapes are short ones is compared as it stands; anything else is
// decoded first.
func (t RawText) Equals(want []byte) bool {
	inner := t.Raw[1 : len(t.Raw)-1]
	if !utf8.Valid(inner) {
		return t.Value() == string(want)
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
			return t.Value() == string(want)
		}
		if s[i] != c {
			return false
		}
		inner, s = inner[i+2:], s[i+1:]
	}
}
