package rawschema

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Compile builds the fast form of a schema document, decoded as
// rawjson.Decode decodes it, that the full validator compiled under its
// declared dialect (2020-12 when it declares none). It is nil when the
// schema uses a keyword or dialect outside the subset decided here:
//
//   - type, enum and const of scalars;
//   - properties, required, additionalProperties;
//   - items (one schema), minItems, maxItems;
//   - minLength, maxLength;
//   - minimum, maximum, exclusiveMinimum, exclusiveMaximum (numbers);
//   - annotations, which assert nothing: title, description, default,
//     examples, $comment, deprecated, readOnly, writeOnly, x-anything;
//     and $schema at the root naming draft-06, draft-07, 2019-09 or
//     2020-12, whose readings of the keywords above are the same.
//
// Anything else ($ref, $defs, $id, pattern, format, the applicators,
// dependent*, unevaluated*, unknown keywords) leaves no fast form.
func Compile(doc any) *Schema {
	root, ok := doc.(map[string]any)
	if !ok || !dialectSupported(root) {
		return nil
	}
	s, ok := (*document)(nil).compile(root, true)
	if !ok {
		return nil
	}
	return s
}

// dialectSupported mirrors how the validator picks a draft from $schema:
// a trailing empty fragment allowed, http or https.
func dialectSupported(root map[string]any) bool {
	v, declared := root["$schema"]
	if !declared {
		return true
	}
	url, ok := v.(string)
	if !ok {
		return false
	}
	url = strings.TrimSuffix(url, "#")
	if rest, ok := strings.CutPrefix(url, "http://"); ok {
		url = rest
	} else {
		url = strings.TrimPrefix(url, "https://")
	}
	switch url {
	case "json-schema.org/schema", "json-schema.org/draft/2020-12/schema",
		"json-schema.org/draft/2019-09/schema", "json-schema.org/draft-07/schema",
		"json-schema.org/draft-06/schema":
		return true
	}
	return false
}

// builder gathers a schema's keywords; properties and required are joined
// into members once all are read.
type builder struct {
	d          *document
	s          *Schema
	properties map[string]*Schema
	required   []string
}

// compile builds the fast form of v. Within a document (d not nil) a
// keyword outside the subset leaves that subschema undecided, not the whole
// document without a fast form.
func (d *document) compile(v any, root bool) (*Schema, bool) {
	switch v := v.(type) {
	case bool:
		if v {
			return newSchema(), true
		}
		return &Schema{str: noStringRules, array: arrayRules{maxItems: -1}}, true // accepts no type
	case map[string]any:
		if d != nil && !d.refAlone(v) {
			return undecided(), true
		}
		b := builder{d: d, s: newSchema()}
		for keyword, value := range v {
			if !b.add(keyword, value, root) {
				return d.failed()
			}
		}
		if !b.joinMembers() {
			return d.failed()
		}
		return b.s, true
	}
	return nil, false
}

func newSchema() *Schema {
	return &Schema{accepts: anyType, str: noStringRules, array: arrayRules{maxItems: -1}}
}

var noStringRules = stringRules{minLength: 0, maxLength: -1}

// annotations are keywords that never make an instance invalid; so are the
// vendor extensions named x-... (MCP's x-mcp-header among them), which the
// validator, given no vocabulary for them, ignores.
var annotations = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true,
	"$comment": true, "deprecated": true, "readOnly": true, "writeOnly": true,
}

// add reads one keyword; false when the fast form cannot hold it.
func (b *builder) add(keyword string, value any, root bool) bool {
	s := b.s
	ok := true
	switch keyword {
	case "type":
		s.accepts, ok = parseTypes(value)
	case "enum":
		values, isArray := value.([]any)
		s.enum, ok = parseScalars(values)
		ok = ok && isArray
	case "const":
		var c scalar
		c, ok = parseScalar(value)
		s.constant = scalarSet{set: true, values: []scalar{c}}
	case "properties":
		b.properties, ok = b.d.nested().compileProperties(value)
	case "required":
		b.required, ok = stringList(value)
	case "additionalProperties":
		s.object.additional, ok = b.d.nested().compile(value, false)
	case "items":
		s.array.items, ok = b.d.nested().compile(value, false)
	case "minItems", "maxItems", "minLength", "maxLength":
		ok = b.addCount(keyword, value)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		var n json.Number
		n, ok = value.(json.Number)
		s.bounds = append(s.bounds, bound{kind: boundKeywords[keyword], limit: parseNumber([]byte(n))})
	case "$schema":
		ok = root // checked by dialectSupported; a nested one starts another dialect
	default:
		ok = annotations[keyword] || strings.HasPrefix(keyword, "x-") || b.d != nil && b.addInDocument(keyword, value)
	}
	return ok
}

// addCount reads a keyword whose value is a count.
func (b *builder) addCount(keyword string, value any) bool {
	n, ok := count(value)
	switch keyword {
	case "minItems":
		b.s.array.minItems = n
	case "maxItems":
		b.s.array.maxItems = n
	case "minLength":
		b.s.str.minLength = n
	case "maxLength":
		b.s.str.maxLength = n
	}
	return ok
}

// count reads a non-negative integer written any way JSON allows (2, 2.0,
// 2e0), as the validator does; a huge one is left to the validator.
func count(value any) (int, bool) {
	n, isNumber := value.(json.Number)
	f, err := strconv.ParseFloat(string(n), 64)
	if !isNumber || err != nil || f < 0 || f > math.MaxInt32 || f != math.Trunc(f) {
		return 0, false
	}
	return int(f), true
}

func (d *document) compileProperties(value any) (map[string]*Schema, bool) {
	props, ok := value.(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]*Schema, len(props))
	for name, sub := range props {
		if out[name], ok = d.compile(sub, false); !ok {
			return nil, false
		}
	}
	return out, true
}

func stringList(value any) ([]string, bool) {
	list, ok := value.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(list))
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// joinMembers makes the members of the object rules: every property and
// every required name, each once.
func (b *builder) joinMembers() bool {
	o := &b.s.object
	at := map[string]int{}
	for name, sub := range b.properties {
		at[name] = len(o.members)
		o.members = append(o.members, member{name: name, schema: sub})
	}
	for _, name := range b.required {
		i, known := at[name]
		if !known {
			i = len(o.members)
			at[name] = i
			o.members = append(o.members, member{name: name})
		}
		if !o.members[i].required {
			o.members[i].required = true
			o.required++
		}
	}
	if len(o.members) > linearLookup {
		o.index = at
	}
	return len(o.members) <= maxMembers
}
