package driver

import "encoding/json"

// schema is the part of a JSON Schema the argument builder reads.
type schema struct {
	Type       json.RawMessage    `json:"type"`
	Properties map[string]*schema `json:"properties"`
	Required   []string           `json:"required"`
	Enum       []json.RawMessage  `json:"enum"`
	Const      json.RawMessage    `json:"const"`
	Default    json.RawMessage    `json:"default"`
	Examples   []json.RawMessage  `json:"examples"`
	Items      *schema            `json:"items"`
	MinItems   int                `json:"minItems"`
	Minimum    *float64           `json:"minimum"`
	Maximum    *float64           `json:"maximum"`
	MinLength  int                `json:"minLength"`
	Format     string             `json:"format"`
	AnyOf      []*schema          `json:"anyOf"`
	OneOf      []*schema          `json:"oneOf"`
}

// BuildArguments makes arguments that satisfy an input schema: every
// required property, with its default, first example, first enum value or a
// plain value of its type; optional properties are left out. ok is false
// when the schema asks for something the builder cannot make.
func BuildArguments(raw json.RawMessage) (args map[string]any, ok bool) {
	var s schema
	if len(raw) == 0 {
		return map[string]any{}, true
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil, false
	}
	v, ok := s.value(0)
	obj, isObj := v.(map[string]any)
	return obj, ok && isObj
}

func (s *schema) value(depth int) (any, bool) {
	if depth > 8 {
		return nil, false
	}
	for _, fixed := range []json.RawMessage{s.Const, s.Default, first(s.Examples), first(s.Enum)} {
		if fixed != nil {
			var v any
			return v, json.Unmarshal(fixed, &v) == nil
		}
	}
	if alt := firstSchema(s.AnyOf, s.OneOf); alt != nil {
		return alt.value(depth + 1)
	}
	return s.typed(depth)
}

func (s *schema) typed(depth int) (any, bool) {
	switch s.typeName() {
	case "object":
		return s.object(depth)
	case "array":
		return s.array(depth)
	case "string":
		return s.str(), true
	case "integer":
		return s.number(1), true
	case "number":
		return s.number(1), true
	case "boolean":
		return true, true
	case "null":
		return nil, true
	}
	return nil, false
}

func (s *schema) object(depth int) (any, bool) {
	obj := map[string]any{}
	for _, name := range s.Required {
		prop := s.Properties[name]
		if prop == nil {
			return nil, false
		}
		v, ok := prop.value(depth + 1)
		if !ok {
			return nil, false
		}
		obj[name] = v
	}
	return obj, true
}

func (s *schema) array(depth int) (any, bool) {
	out := []any{}
	if s.MinItems == 0 {
		return out, true
	}
	if s.Items == nil {
		return nil, false
	}
	for i := 0; i < s.MinItems; i++ {
		v, ok := s.Items.value(depth + 1)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

func (s *schema) str() string {
	switch s.Format {
	case "uri", "uri-reference", "iri":
		return "file:///tmp/mcpverdict"
	case "email":
		return "mcpverdict@example.com"
	case "date":
		return "2026-01-01"
	case "date-time":
		return "2026-01-01T00:00:00Z"
	}
	v := "mcpverdict"
	for len(v) < s.MinLength {
		v += "-"
	}
	return v
}

func (s *schema) number(v float64) float64 {
	if s.Minimum != nil && v < *s.Minimum {
		v = *s.Minimum
	}
	if s.Maximum != nil && v > *s.Maximum {
		v = *s.Maximum
	}
	return v
}

// typeName reads "type" as a string or the first of a list.
func (s *schema) typeName() string {
	var one string
	if json.Unmarshal(s.Type, &one) == nil {
		return one
	}
	var many []string
	if json.Unmarshal(s.Type, &many) == nil && len(many) > 0 {
		return many[0]
	}
	if s.Properties != nil {
		return "object"
	}
	return ""
}

func first(list []json.RawMessage) json.RawMessage {
	if len(list) == 0 {
		return nil
	}
	return list[0]
}

func firstSchema(lists ...[]*schema) *schema {
	for _, l := range lists {
		if len(l) > 0 {
			return l[0]
		}
	}
	return nil
}

// SmallArguments are BuildArguments with every duration-like numeric
// argument (a delay, an interval, a timeout) made as small as the schema
// allows, required or not, so that a call does not spend the server's
// default seconds.
func SmallArguments(raw json.RawMessage) (map[string]any, bool) {
	return argumentsWith(raw, smallDuration)
}

// CancellableArguments are the arguments of the call the driver cancels:
// like SmallArguments, but long enough (a quarter second, or one unit of a
// duration in seconds) that the cancellation arrives while the call runs.
func CancellableArguments(raw json.RawMessage) (map[string]any, bool) {
	return argumentsWith(raw, cancellableDuration)
}

func argumentsWith(raw json.RawMessage, duration func(name string, s *schema) float64) (map[string]any, bool) {
	args, ok := BuildArguments(raw)
	if !ok {
		return nil, false
	}
	var s schema
	_ = json.Unmarshal(raw, &s)
	for name, prop := range s.Properties {
		if prop.numeric() && durationLike(name) {
			args[name] = duration(name, prop)
		}
	}
	return args, true
}

func smallDuration(name string, s *schema) float64 {
	switch {
	case s.Minimum != nil:
		return s.number(*s.Minimum)
	case s.typeName() == "integer" || inMilliseconds(name):
		return s.number(1)
	}
	return s.number(0.1)
}

func cancellableDuration(name string, s *schema) float64 {
	if inMilliseconds(name) {
		return s.number(250)
	}
	return s.number(1)
}

func (s *schema) numeric() bool {
	t := s.typeName()
	return t == "number" || t == "integer"
}

// hasDurationArgument reports an input schema with a duration-like numeric
// property: a tool that takes time by design.
func hasDurationArgument(raw json.RawMessage) bool {
	var s schema
	if json.Unmarshal(raw, &s) != nil {
		return false
	}
	for name, prop := range s.Properties {
		if prop.numeric() && durationLike(name) {
			return true
		}
	}
	return false
}
