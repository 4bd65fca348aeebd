package rawschema

// boundKind is one of the four keywords that bound a number.
type boundKind uint8

const (
	minimum boundKind = iota
	maximum
	exclusiveMinimum
	exclusiveMaximum
)

var boundKeywords = map[string]boundKind{
	"minimum": minimum, "maximum": maximum,
	"exclusiveMinimum": exclusiveMinimum, "exclusiveMaximum": exclusiveMaximum,
}

type bound struct {
	kind  boundKind
	limit number
}

// admits reports whether n provably lies within the bound.
func (b bound) admits(n number) bool {
	order, known := compare(n, b.limit)
	if !known {
		return false
	}
	switch b.kind {
	case minimum:
		return order >= 0
	case maximum:
		return order <= 0
	case exclusiveMinimum:
		return order > 0
	}
	return order < 0
}

// validNumber checks the text of a well-formed JSON number.
func (s *Schema) validNumber(text []byte) bool {
	if !s.accepts.has(numberType) {
		integer, known := isInteger(text)
		if !s.accepts.has(integerType) || !integer || !known {
			return false
		}
	}
	if len(s.bounds) == 0 && !s.enum.set && !s.constant.set {
		return true // nothing needs the number's value
	}
	n := parseNumber(text)
	for _, b := range s.bounds {
		if !b.admits(n) {
			return false
		}
	}
	return s.enum.admitsNumber(n) && s.constant.admitsNumber(n)
}
