package elicitation

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// formSchema is a requestedSchema as the form checks read it.
type formSchema struct {
	Type       string                     `json:"type"`
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
}

// propertySchema is one property of a requestedSchema.
type propertySchema struct {
	Type        any             `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Items       json.RawMessage `json:"items"`
	Format      *string         `json:"format"`
}

// stringFormats are the formats the page lists for a form's string fields.
var stringFormats = map[string]bool{"email": true, "uri": true, "date": true, "date-time": true}

// enumItems is the items member of a multi-select enum.
type enumItems struct {
	Type  any               `json:"type"`
	Enum  []json.RawMessage `json:"enum"`
	AnyOf []json.RawMessage `json:"anyOf"`
}

// FlatPrimitiveProblem says how a requestedSchema leaves the flat object of
// primitive properties a form may ask for, or "" when it does not.
func FlatPrimitiveProblem(raw json.RawMessage) string {
	var fs formSchema
	if !message.Decode(raw, &fs) || fs.Type != "object" || fs.Properties == nil {
		return `requestedSchema is not an object schema with "type": "object" and properties`
	}
	for _, name := range engine.SortedKeysOf(fs.Properties) {
		if problem := primitiveProblem(fs.Properties[name]); problem != "" {
			return fmt.Sprintf("property %q %s", name, problem)
		}
	}
	return ""
}

func primitiveProblem(raw json.RawMessage) string {
	var p propertySchema
	if !message.Decode(raw, &p) {
		return "is not a schema object"
	}
	switch p.Type {
	case "string":
		if p.Format != nil && !stringFormats[*p.Format] {
			return fmt.Sprintf("has format %q, not one a form supports (email, uri, date, date-time)", *p.Format)
		}
		return ""
	case "number", "integer", "boolean":
		return ""
	case "array":
		return enumItemsProblem(p.Items)
	}
	return fmt.Sprintf("has type %v, not a primitive (string, number, integer, boolean) or a multi-select enum", jsonText(p.Type))
}

// enumItemsProblem allows arrays only as multi-select enums: string items
// drawn from an enum or an anyOf of constants.
func enumItemsProblem(raw json.RawMessage) string {
	var it enumItems
	if !message.Decode(raw, &it) {
		return "is an array without an items schema"
	}
	if it.Type != nil && it.Type != "string" {
		return fmt.Sprintf("is an array of %v, not a multi-select enum of strings", jsonText(it.Type))
	}
	if len(it.Enum) == 0 && len(it.AnyOf) == 0 {
		return "is an array whose items are neither an enum nor an anyOf of constants"
	}
	return ""
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// sensitiveField matches the names and titles of form fields that ask for a
// secret or a credential, which forms must never collect.
var sensitiveField = regexp.MustCompile(`(?i)(pass(word|wd|phrase)|api[ _-]?key|secret([ _-]|\b)|(access|auth|bearer|refresh|session)[ _-]?token|private[ _-]?key|credit[ _-]?card|card[ _-]?number|\bcvv\b|\bcvc\b|\bpin\b|social[ _-]?security|\bssn\b|\biban\b)`)

// SensitiveFields lists the properties of a form schema whose name or title
// asks for a secret, sorted.
func SensitiveFields(raw json.RawMessage) []string {
	var fs formSchema
	if !message.Decode(raw, &fs) {
		return nil
	}
	var out []string
	for name, prop := range fs.Properties {
		var p propertySchema
		message.Decode(prop, &p)
		if sensitiveField.MatchString(name) || sensitiveField.MatchString(p.Title) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// clickable matches a URL a client could render as a link.
var clickable = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>]+`)

// formURLs lists the URLs in a form request's message and in its fields'
// titles and descriptions.
func formURLs(prompt string, schema json.RawMessage) []string {
	texts := []string{prompt}
	var fs formSchema
	message.Decode(schema, &fs)
	for _, name := range engine.SortedKeysOf(fs.Properties) {
		var p propertySchema
		message.Decode(fs.Properties[name], &p)
		texts = append(texts, p.Title, p.Description)
	}
	var out []string
	for _, t := range texts {
		out = append(out, clickable.FindAllString(t, -1)...)
	}
	return out
}

// requiredFields returns the required member of a form schema.
func requiredFields(raw json.RawMessage) []string {
	var fs formSchema
	message.Decode(raw, &fs)
	return fs.Required
}
