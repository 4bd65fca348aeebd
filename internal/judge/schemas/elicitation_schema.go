package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// maxSchemas bounds the compiled requestedSchemas a session keeps; servers
// reuse a handful of forms, so the cache rarely turns over.
const maxSchemas = 64

// SchemaCache compiles each distinct requestedSchema once per session.
type SchemaCache struct {
	compiled map[string]*jsonschema.Schema
	broken   map[string]bool
}

// noLoader refuses every external reference: a schema from the wire must not
// make the judge read files or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("reference to %s not followed: requestedSchema must be self-contained", url)
}

const schemaURL = "urn:mcpverdict:requested-schema"

// Compile returns the compiled schema, or nil when it does not compile.
func (c *SchemaCache) Compile(raw json.RawMessage) *jsonschema.Schema {
	key := string(raw)
	if sch, ok := c.compiled[key]; ok {
		return sch
	}
	if c.broken[key] {
		return nil
	}
	if len(c.compiled)+len(c.broken) >= maxSchemas {
		c.compiled, c.broken = nil, nil
	}
	sch, err := compileSchema(raw)
	if err != nil {
		c.broken = setTrue(c.broken, key)
		return nil
	}
	if c.compiled == nil {
		c.compiled = map[string]*jsonschema.Schema{}
	}
	c.compiled[key] = sch
	return sch
}

func compileSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	c.AssertFormat() // the page lists the formats a form may ask for
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
}

// Validate checks content against a compiled schema; it returns the first
// problem found, or "".
func Validate(sch *jsonschema.Schema, content json.RawMessage) string {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(content))
	if err != nil {
		return "the content is not JSON"
	}
	err = sch.Validate(v)
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return firstCause(ve).Error()
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// firstCause walks to the innermost cause, whose message names the
// offending member rather than the whole document.
func firstCause(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return ve
}

func setTrue(m map[string]bool, key string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[key] = true
	return m
}
