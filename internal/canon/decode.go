package canon

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// MaxDepth bounds nesting, so that hostile input cannot exhaust the stack.
const MaxDepth = 512

// SyntaxError says what is wrong with a document and where.
type SyntaxError struct {
	// Path is the JSON path of the value being read.
	Path Path
	// Offset is the byte offset of the problem.
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s: %s (byte %d)", e.Path, e.Msg, e.Offset)
}

// Decode parses exactly one JSON value, refusing duplicate keys, lone
// surrogates, invalid UTF-8 and anything after the value but whitespace.
func Decode(data []byte) (Value, error) {
	d := decoder{data: data}
	d.skipSpace()
	v, err := d.value(0)
	if err != nil {
		return Value{}, err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return Value{}, d.fail("unexpected data after the JSON value")
	}
	return v, nil
}

type decoder struct {
	data []byte
	pos  int
	path Path
}

func (d *decoder) fail(format string, args ...any) error {
	return &SyntaxError{Path: append(Path(nil), d.path...), Offset: d.pos, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) (Value, error) {
	if d.pos >= len(d.data) {
		return Value{}, d.fail("unexpected end of input")
	}
	if depth > MaxDepth {
		return Value{}, d.fail("nested deeper than %d levels", MaxDepth)
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		s, err := d.str()
		return Value{Kind: String, Text: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	}
	return d.literal()
}

func (d *decoder) literal() (Value, error) {
	for _, lit := range []struct {
		text string
		v    Value
	}{{"true", Value{Kind: Bool, True: true}}, {"false", Value{Kind: Bool}}, {"null", Value{Kind: Null}}} {
		if len(d.data)-d.pos >= len(lit.text) && string(d.data[d.pos:d.pos+len(lit.text)]) == lit.text {
			d.pos += len(lit.text)
			return lit.v, nil
		}
	}
	return Value{}, d.fail("invalid character %q: expected a JSON value", d.data[d.pos])
}

func (d *decoder) array(depth int) (Value, error) {
	d.pos++
	v := Value{Kind: Array}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return v, nil
	}
	for {
		d.path = append(d.path, PathElem{Index: len(v.Items)})
		d.skipSpace()
		item, err := d.value(depth + 1)
		if err != nil {
			return v, err
		}
		d.path = d.path[:len(d.path)-1]
		v.Items = append(v.Items, item)
		done, err := d.separator(']')
		if err != nil || done {
			return v, err
		}
	}
}

// separator consumes a comma (false) or the closing byte (true).
func (d *decoder) separator(closing byte) (bool, error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return false, d.fail("unexpected end of input: expected ',' or %q", closing)
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		return false, nil
	case closing:
		d.pos++
		return true, nil
	}
	return false, d.fail("invalid character %q: expected ',' or %q", d.data[d.pos], closing)
}

func (d *decoder) object(depth int) (Value, error) {
	d.pos++
	v := Value{Kind: Object}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return v, nil
	}
	// Duplicates are looked for among the members so far; past a handful
	// a map finds them faster than the scan.
	var seen map[string]struct{}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return v, d.fail("expected a string key")
		}
		key, err := d.str()
		if err != nil {
			return v, err
		}
		d.path = append(d.path, PathElem{Key: key, IsKey: true})
		if dup := duplicateKey(v.Members, seen, key); dup {
			return v, d.fail("duplicate key %q", key)
		}
		if len(v.Members) == smallObject {
			seen = make(map[string]struct{}, 2*smallObject)
			for _, m := range v.Members {
				seen[m.Key] = struct{}{}
			}
		}
		if seen != nil {
			seen[key] = struct{}{}
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return v, d.fail("expected ':' after the key")
		}
		d.pos++
		d.skipSpace()
		item, err := d.value(depth + 1)
		if err != nil {
			return v, err
		}
		d.path = d.path[:len(d.path)-1]
		v.Members = append(v.Members, Member{Key: key, Value: item})
		done, err := d.separator('}')
		if err != nil || done {
			return v, err
		}
	}
}

// smallObject is how many members an object has before duplicates are
// looked for in a map rather than by scanning.
const smallObject = 12

func duplicateKey(members []Member, seen map[string]struct{}, key string) bool {
	if seen != nil {
		_, dup := seen[key]
		return dup
	}
	for _, m := range members {
		if m.Key == key {
			return true
		}
	}
	return false
}

func (d *decoder) number() (Value, error) {
	end, ok := rawjson.NumberEnd(d.data, d.pos)
	if !ok {
		return Value{}, d.fail("malformed number")
	}
	v := Value{Kind: Number, Text: string(d.data[d.pos:end])}
	if _, err := appendNumber(nil, v.Text); err != nil {
		return Value{}, d.fail("%v", err)
	}
	d.pos = end
	return v, nil
}

// str reads a string at d.pos (which holds the opening quote).
func (d *decoder) str() (string, error) {
	start := d.pos + 1
	i := start
	for i < len(d.data) {
		c := d.data[i]
		if c == '"' {
			s := string(d.data[start:i])
			d.pos = i + 1
			return s, d.checkUTF8(s, start)
		}
		if c == '\\' {
			return d.escapedStr(start)
		}
		if c < 0x20 {
			d.pos = i
			return "", d.fail("control character %#02x in a string: it must be escaped", c)
		}
		i++
	}
	d.pos = i
	return "", d.fail("unterminated string")
}

func (d *decoder) checkUTF8(s string, start int) error {
	if utf8.ValidString(s) {
		return nil
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			d.pos = start + i
			return d.fail("invalid UTF-8 in a string")
		}
		i += n
	}
	return nil
}

// escapedStr reads a string holding escapes, slowly.
func (d *decoder) escapedStr(start int) (string, error) {
	out := make([]byte, 0, 32)
	i := start
	for i < len(d.data) {
		c := d.data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return string(out), d.checkUTF8(string(out), start)
		case c < 0x20:
			d.pos = i
			return "", d.fail("control character %#02x in a string: it must be escaped", c)
		case c != '\\':
			out = append(out, c)
			i++
			continue
		}
		var err error
		out, i, err = d.escape(out, i)
		if err != nil {
			return "", err
		}
	}
	d.pos = i
	return "", d.fail("unterminated string")
}

var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape decodes the escape at i (a backslash) onto out.
func (d *decoder) escape(out []byte, i int) ([]byte, int, error) {
	if i+1 >= len(d.data) {
		d.pos = i
		return out, i, d.fail("unterminated string")
	}
	if c, ok := simpleEscapes[d.data[i+1]]; ok {
		return append(out, c), i + 2, nil
	}
	if d.data[i+1] != 'u' {
		d.pos = i
		return out, i, d.fail("invalid escape \\%c", d.data[i+1])
	}
	r, ok := hex4(d.data, i+2)
	if !ok {
		d.pos = i
		return out, i, d.fail("invalid \\u escape")
	}
	i += 6
	if utf16.IsSurrogate(r) {
		lo, ok := rune(0), false
		if i+1 < len(d.data) && d.data[i] == '\\' && d.data[i+1] == 'u' {
			lo, ok = hex4(d.data, i+2)
		}
		r = utf16.DecodeRune(r, lo)
		if !ok || r == utf8.RuneError {
			d.pos = i - 6
			return out, i, d.fail("lone surrogate escape: it has no UTF-8 form and cannot be hashed")
		}
		i += 6
	}
	return utf8.AppendRune(out, r), i, nil
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
