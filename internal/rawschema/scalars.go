package rawschema

import "encoding/json"

// scalar is one value of an enum or const that is not an array or object.
type scalar struct {
	kind byte // '"', 't', 'f', 'n' or '0' for a number
	str  string
	num  number
}

// scalarSet is the values of an enum (or the one value of a const); unset,
// it admits anything.
type scalarSet struct {
	set    bool
	values []scalar
}

// parseScalar reads a value as the schema decoder gave it; false for an
// array or object, which the fast form does not compare.
func parseScalar(v any) (scalar, bool) {
	switch v := v.(type) {
	case nil:
		return scalar{kind: 'n'}, true
	case bool:
		if v {
			return scalar{kind: 't'}, true
		}
		return scalar{kind: 'f'}, true
	case string:
		return scalar{kind: '"', str: v}, true
	case json.Number:
		return scalar{kind: '0', num: parseNumber([]byte(v))}, true
	}
	return scalar{}, false
}

func parseScalars(values []any) (scalarSet, bool) {
	set := scalarSet{set: true}
	for _, v := range values {
		s, ok := parseScalar(v)
		if !ok {
			return scalarSet{}, false
		}
		set.values = append(set.values, s)
	}
	return set, true
}

// admitsLiteral reports whether true, false or null ('t', 'f', 'n') is in
// the set.
func (s *scalarSet) admitsLiteral(kind byte) bool {
	if !s.set {
		return true
	}
	for _, v := range s.values {
		if v.kind == kind {
			return true
		}
	}
	return false
}

// admitsString reports whether the decoded string is in the set.
func (s *scalarSet) admitsString(decoded []byte) bool {
	if !s.set {
		return true
	}
	for _, v := range s.values {
		if v.kind == '"' && v.str == string(decoded) {
			return true
		}
	}
	return false
}

// admitsNumber reports whether the set provably holds the number.
func (s *scalarSet) admitsNumber(n number) bool {
	if !s.set {
		return true
	}
	for _, v := range s.values {
		if order, known := compare(n, v.num); v.kind == '0' && known && order == 0 {
			return true
		}
	}
	return false
}
