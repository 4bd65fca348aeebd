package canon

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is one parsed JSON value. Numbers keep their literal text, because
// whether a literal has a fraction or exponent decides how it is hashed.
type Value struct {
	Kind Kind
	// Text is a string's contents or a number's literal.
	Text string
	// True is a boolean's value.
	True bool
	// Items are an array's elements.
	Items []Value
	// Members are an object's members in the order they were read.
	Members []Member
}

// Member is one key and value of an object.
type Member struct {
	Key   string
	Value Value
}

// Get returns the member named key and whether there is one.
func (v Value) Get(key string) (Value, bool) {
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value, true
		}
	}
	return Value{}, false
}

// StringValue makes a string Value.
func StringValue(s string) Value { return Value{Kind: String, Text: s} }

// TypeName names a kind the way error messages and JSON Schema do.
func (k Kind) TypeName() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	}
	return "object"
}
