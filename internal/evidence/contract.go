package evidence

import (
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// Payload returns what a contract hash covers: the recipe's fields of a
// declaration (manifest spelling: input_schema, output_schema), each the
// declaration's own value when it has one, even null, else the fallback.
func Payload(decl canon.Value, r Recipe) (canon.Value, error) {
	fields, ok := recipeFields[r]
	if !ok {
		return canon.Value{}, fmt.Errorf("unknown contract recipe %q", r)
	}
	out := canon.Value{Kind: canon.Object, Members: make([]canon.Member, 0, len(fields))}
	for _, f := range fields {
		v, ok := decl.Get(f.name)
		if !ok {
			if f.name == "name" {
				return canon.Value{}, fmt.Errorf("a tool declaration has no name")
			}
			v = f.fallback
		}
		out.Members = append(out.Members, canon.Member{Key: f.name, Value: v})
	}
	return out, nil
}

// Fingerprint returns a declaration's contract hash under r: "sha256:" and
// the hex SHA-256 of the canonical payload.
func Fingerprint(decl canon.Value, r Recipe) (string, error) {
	p, err := Payload(decl, r)
	if err != nil {
		return "", err
	}
	return canon.Fingerprint(p)
}

// servedNames maps the fields of a tool as tools/list serves it to the
// manifest's spelling.
var servedNames = map[string]string{
	"name": "name", "description": "description", "inputSchema": "input_schema",
	"outputSchema": "output_schema", "annotations": "annotations", "title": "title",
	"execution": "execution",
}

// FromServed turns a tool as a server lists it (inputSchema, outputSchema,
// …) into a declaration in the manifest's spelling, keeping only the fields
// some recipe covers. _meta and icons stay out, as in mcp-evidence-validator.
func FromServed(tool canon.Value) canon.Value {
	out := canon.Value{Kind: canon.Object}
	for _, m := range tool.Members {
		if name, ok := servedNames[m.Key]; ok {
			out.Members = append(out.Members, canon.Member{Key: name, Value: m.Value})
		}
	}
	return out
}
