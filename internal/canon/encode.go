package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// Append writes v in canonical form after dst.
func Append(dst []byte, v Value) ([]byte, error) {
	switch v.Kind {
	case Null:
		return append(dst, "null"...), nil
	case Bool:
		if v.True {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case Number:
		return appendNumber(dst, v.Text)
	case String:
		return AppendString(dst, v.Text), nil
	case Array:
		return appendArray(dst, v.Items)
	}
	return appendObject(dst, v.Members)
}

// Marshal returns v in canonical form.
func Marshal(v Value) ([]byte, error) { return Append(nil, v) }

// Fingerprint returns "sha256:" and the lowercase hex SHA-256 of v's
// canonical form.
func Fingerprint(v Value) (string, error) {
	b, err := Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

func appendArray(dst []byte, items []Value) ([]byte, error) {
	dst = append(dst, '[')
	for i, item := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = Append(dst, item); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

func appendObject(dst []byte, members []Member) ([]byte, error) {
	sorted := slices.Clone(members)
	// Byte order of UTF-8 is code point order, the order Python sorts str by.
	slices.SortFunc(sorted, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
	dst = append(dst, '{')
	for i, m := range sorted {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, m.Key)
		dst = append(dst, ':')
		var err error
		if dst, err = Append(dst, m.Value); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// AppendString writes s quoted, escaping only what Python's json module
// escapes with ensure_ascii off. s must be valid UTF-8 (Decode guarantees it).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = rawjson.AppendEscape(dst, c)
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// ValidUTF8 reports whether s can be hashed: Python cannot encode a string
// that is not valid UTF-8 either.
func ValidUTF8(s string) bool { return utf8.ValidString(s) }
