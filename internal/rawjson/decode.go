package rawjson

import "encoding/json"

// maxDepth is how deeply encoding/json lets arrays and objects nest; Decode
// refuses what it refuses.
const maxDepth = 10000

// Decode decodes the one JSON value in b (whitespace around it allowed)
// into what encoding/json's Decoder with UseNumber gives: map[string]any,
// []any, string, json.Number, bool or nil, the last of a repeated key
// kept. The JSON Schema validators take values of this shape, one message
// at a time; this is that decoder without reflection or a scanner state
// machine. False when b is not one well-formed JSON value.
func Decode(b []byte) (any, bool) {
	d := decoder{b: b}
	v, ok := d.value(skipSpace(b, 0), 0)
	if !ok || skipSpace(b, d.i) != len(b) {
		return nil, false
	}
	return v, true
}

type decoder struct {
	b []byte
	i int // where the last value read ended
}

func (d *decoder) value(i, depth int) (any, bool) {
	b := d.b
	if i >= len(b) {
		return nil, false
	}
	switch c := b[i]; {
	case c == '{':
		return d.object(i, depth+1)
	case c == '[':
		return d.array(i, depth+1)
	case c == '"':
		s, ok := d.str(i)
		return s, ok
	case c == '-' || isDigit(c):
		end, ok := skipNumber(b, i)
		d.i = end
		return json.Number(b[i:end]), ok
	case c == 't':
		return d.literal(i, "true", true)
	case c == 'f':
		return d.literal(i, "false", false)
	case c == 'n':
		return d.literal(i, "null", nil)
	}
	return nil, false
}

func (d *decoder) literal(i int, text string, v any) (any, bool) {
	end, ok := skipLiteral(d.b, i, text)
	d.i = end
	return v, ok
}

// str decodes the string that opens at b[i]: its own text when that needs
// no decoding, else as encoding/json decodes it.
func (d *decoder) str(i int) (string, bool) {
	end, ok := skipString(d.b, i)
	d.i = end
	if !ok {
		return "", false
	}
	if inner := d.b[i+1 : end-1]; !needsDecoding(inner) {
		return string(inner), true
	}
	var s string
	return s, json.Unmarshal(d.b[i:end], &s) == nil
}

func (d *decoder) object(i, depth int) (any, bool) {
	if depth > maxDepth {
		return nil, false
	}
	b := d.b
	obj := map[string]any{}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		d.i = i + 1
		return obj, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		key, ok := d.str(i)
		i = skipSpace(b, d.i)
		if !ok || i >= len(b) || b[i] != ':' {
			return nil, false
		}
		v, ok := d.value(skipSpace(b, i+1), depth)
		if !ok {
			return nil, false
		}
		obj[key] = v
		if i, ok = d.after(d.i, '}'); !ok || i < 0 {
			return obj, ok
		}
	}
}

func (d *decoder) array(i, depth int) (any, bool) {
	if depth > maxDepth {
		return nil, false
	}
	b := d.b
	arr := []any{}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == ']' {
		d.i = i + 1
		return arr, true
	}
	for {
		v, ok := d.value(i, depth)
		if !ok {
			return nil, false
		}
		arr = append(arr, v)
		if i, ok = d.after(d.i, ']'); !ok || i < 0 {
			return arr, ok
		}
	}
}

// after reads the comma or closing bracket after an entry: the start of the
// next entry, or -1 (with d.i past the bracket) at the end.
func (d *decoder) after(i int, closer byte) (int, bool) {
	b := d.b
	i = skipSpace(b, i)
	switch {
	case i < len(b) && b[i] == ',':
		return skipSpace(b, i+1), true
	case i < len(b) && b[i] == closer:
		d.i = i + 1
		return -1, true
	}
	return 0, false
}
