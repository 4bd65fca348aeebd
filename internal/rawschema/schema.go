// Package rawschema decides, on raw JSON text and without decoding it into
// maps, that an instance conforms to a JSON Schema written in a common
// subset of keywords (see Compile). It only ever proves validity: when it
// cannot, the caller asks a full validator, which also says why. The judge
// validates the arguments and structured result of every tools/call, and
// decoding each into map[string]any for the full validator was a visible
// share of its time and allocations in the judge benchmarks.
package rawschema

import "github.com/mcpverdict/mcpverdict/internal/rawjson"

// Schema is the fast form of a schema (or of one of its subschemas).
type Schema struct {
	accepts        typeSet
	enum, constant scalarSet
	object         objectRules
	array          arrayRules
	str            stringRules
	bounds         []bound
	// Within a Document: the referenced schema, the applicators, and
	// undecided for a subschema outside the subset.
	ref          *Schema
	anyOf, allOf []*Schema
	undecided    bool
}

// Valid reports whether the JSON text c is proven to conform. False means
// "not proven": c may be beyond what the fast form decides. With
// nullsAbsent, an object member whose value is null counts as absent, in
// objects reached from the top through object members only (not through
// arrays): what the judge's withoutNulls does to tools/call arguments.
// The text is Checked, so that its grammar is not checked again: a
// caller that has not checked it calls rawjson.Check first.
func (s *Schema) Valid(c rawjson.Checked, nullsAbsent bool) bool {
	c = c.TrimSpace()
	if s == nil || len(c.Bytes()) == 0 {
		return false
	}
	return s.valid(c, nullsAbsent)
}

// ValidKnowing is Valid without nulls absent, for a caller that holds one
// of c's member values as Checked text within it: where c is an object of
// this schema's own properties, that value's end is not searched for.
func (s *Schema) ValidKnowing(c, known rawjson.Checked) bool {
	c = c.TrimSpace()
	if s == nil || len(c.Bytes()) == 0 {
		return false
	}
	if c.Bytes()[0] != '{' || s.undecided || s.ref != nil || len(s.anyOf) > 0 || len(s.allOf) > 0 {
		return s.valid(c, false)
	}
	return s.accepts.has(objectType) && s.admitsContainers() && s.object.validKnowing(c, false, known)
}

// valid checks the value of value, no whitespace around it.
func (s *Schema) valid(value rawjson.Checked, nullsAbsent bool) bool {
	if s.undecided || s.ref != nil && !s.ref.valid(value, nullsAbsent) || !s.applicatorsValid(value, nullsAbsent) {
		return false
	}
	v := value.Bytes()
	switch c := v[0]; {
	case c == '{':
		return s.accepts.has(objectType) && s.admitsContainers() && s.object.valid(value, nullsAbsent)
	case c == '[':
		return s.accepts.has(arrayType) && s.admitsContainers() && s.array.valid(value)
	case c == '"':
		return s.accepts.has(stringType) && s.validString(v)
	case c == 't' || c == 'f':
		return s.accepts.has(booleanType) && s.enum.admitsLiteral(c) && s.constant.admitsLiteral(c)
	case c == 'n':
		return s.accepts.has(nullType) && s.enum.admitsLiteral(c) && s.constant.admitsLiteral(c)
	}
	return s.validNumber(v)
}

// admitsContainers reports whether no enum or const rules out objects and
// arrays: the fast form keeps only enums of scalars, which none equals.
func (s *Schema) admitsContainers() bool { return !s.enum.set && !s.constant.set }

// applicatorsValid checks allOf and anyOf: every schema of the one, some
// schema of the other.
func (s *Schema) applicatorsValid(value rawjson.Checked, nullsAbsent bool) bool {
	for _, sub := range s.allOf {
		if !sub.valid(value, nullsAbsent) {
			return false
		}
	}
	if len(s.anyOf) == 0 {
		return true
	}
	for _, sub := range s.anyOf {
		if sub.valid(value, nullsAbsent) {
			return true
		}
	}
	return false
}
