package rawschema

import (
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// maxMembers bounds the names an object schema knows (its properties and
// required names), which one uint64 tracks per instance object.
const maxMembers = 64

// linearLookup is how many names are searched in order rather than hashed.
const linearLookup = 8

// member is a name the schema knows: a property, a required name, or both.
type member struct {
	name string
	// schema is the property's subschema; nil for a name that is only
	// required, whose value additionalProperties governs.
	schema   *Schema
	required bool
}

// objectRules are properties, required and additionalProperties.
type objectRules struct {
	members  []member
	index    map[string]int // member by name, when there are many
	required int            // how many members are required
	// additional governs the members the schema does not name; nil
	// admits any, a schema of no type (false) admits none.
	additional *Schema
}

// valid checks a well-formed object. A name that repeats among the known
// ones is not decided here: which occurrence counts differs between the
// decoders in play (the last one; or none when it is null and nulls are
// absent), and the full validator settles it.
func (o *objectRules) valid(obj rawjson.Checked, nullsAbsent bool) bool {
	return o.validKnowing(obj, nullsAbsent, rawjson.Checked{})
}

// validKnowing is valid, given a member value of obj whose end is known.
func (o *objectRules) validKnowing(obj rawjson.Checked, nullsAbsent bool, known rawjson.Checked) bool {
	if len(o.members) == 0 && o.additional == nil {
		return true // no rules: no member needs reading
	}
	var seen uint64
	present := 0
	it := obj.MembersKnowing(known)
	for it.Next() {
		if !decodesAlike(it.RawKey()) {
			return false
		}
		at := o.lookup(it.Key())
		if at >= 0 {
			if seen&(1<<at) != 0 {
				return false
			}
			seen |= 1 << at
		}
		value := it.CheckedValue()
		if nullsAbsent && value.Bytes()[0] == 'n' {
			continue
		}
		if at >= 0 && o.members[at].required {
			present++
		}
		if sub := o.governing(at); sub != nil && !sub.valid(value, nullsAbsent) {
			return false
		}
	}
	return present == o.required
}

func (o *objectRules) lookup(name []byte) int {
	if o.index != nil {
		if at, ok := o.index[string(name)]; ok {
			return at
		}
		return -1
	}
	for at := range o.members {
		if o.members[at].name == string(name) {
			return at
		}
	}
	return -1
}

// governing is the schema for the value of member at (-1: an unknown name).
func (o *objectRules) governing(at int) *Schema {
	if at >= 0 && o.members[at].schema != nil {
		return o.members[at].schema
	}
	return o.additional
}

// decodesAlike reports whether a key, as written between its quotes, has
// one reading for every decoder the instance may pass through: no bytes
// that are not UTF-8 and no \u escape of a UTF-16 surrogate, which
// decoders may replace differently.
func decodesAlike(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		if raw[i+1] == 'u' && isSurrogateEscape(raw[i+2:i+6]) {
			return false
		}
		i++ // the escaped byte is no backslash of its own
	}
	return utf8.Valid(raw)
}

// isSurrogateEscape reports whether four hex digits fall in D800-DFFF.
func isSurrogateEscape(hex []byte) bool {
	return (hex[0] == 'd' || hex[0] == 'D') && (hex[1] >= '8' && hex[1] <= '9' || hex[1] >= 'a' && hex[1] <= 'f' || hex[1] >= 'A' && hex[1] <= 'F')
}
