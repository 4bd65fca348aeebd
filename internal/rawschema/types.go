package rawschema

// typeSet is the set of JSON Schema types a schema's "type" accepts.
type typeSet uint8

const (
	nullType typeSet = 1 << iota
	booleanType
	objectType
	arrayType
	numberType
	// integerType alone accepts the numbers of integer value.
	integerType
	stringType

	anyType = nullType | booleanType | objectType | arrayType | numberType | integerType | stringType
)

func (t typeSet) has(u typeSet) bool { return t&u != 0 }

var typeNames = map[string]typeSet{
	"null": nullType, "boolean": booleanType, "object": objectType, "array": arrayType,
	"number": numberType, "integer": integerType, "string": stringType,
}

// parseTypes reads the value of "type": one name or an array of names. An
// empty array constrains nothing, as the validator reads it.
func parseTypes(v any) (typeSet, bool) {
	switch v := v.(type) {
	case string:
		t, ok := typeNames[v]
		return t, ok
	case []any:
		if len(v) == 0 {
			return anyType, true
		}
		var set typeSet
		for _, name := range v {
			s, isString := name.(string)
			t, ok := typeNames[s]
			if !isString || !ok {
				return 0, false
			}
			set |= t
		}
		return set, true
	}
	return 0, false
}
