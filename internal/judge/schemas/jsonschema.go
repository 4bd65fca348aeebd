package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/mcpverdict/mcpverdict/internal/rawschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// offlineSchemaURL is the location a compiled schema is registered under; it names
// no real resource, so a relative $ref can only resolve inside the schema.
const offlineSchemaURL = "urn:mcpverdict:schema"

// CompiledSchema is a schema a party published, compiled once.
type CompiledSchema struct {
	schema *jsonschema.Schema
	// fast proves most conforming instances valid on their raw text; nil
	// when the schema uses keywords it does not decide. Only the library
	// explains a failure, so anything fast does not prove valid goes there.
	fast *rawschema.Schema
	// Invalid says why the schema is not a valid JSON Schema; empty when it
	// compiled or when it could not be judged (see unresolved).
	Invalid string
	// Unresolved is set when the schema needs a resource the judge does not
	// fetch (an external $ref or meta-schema): neither valid nor invalid.
	Unresolved bool
}

// CompileOffline compiles a JSON Schema under its declared dialect, 2020-12
// when it declares none.
func CompileOffline(raw json.RawMessage) *CompiledSchema {
	doc, ok := rawjson.Decode(raw)
	if !ok {
		return &CompiledSchema{Invalid: "it is not JSON"}
	}
	if _, isObject := doc.(map[string]any); !isObject {
		return &CompiledSchema{Invalid: fmt.Sprintf("it is %s, not a JSON object", jsonKind(doc))}
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{}) // no I/O: an external $ref leaves the schema unresolved
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(offlineSchemaURL, doc); err != nil {
		return &CompiledSchema{Invalid: oneLine(err.Error())}
	}
	sch, err := c.Compile(offlineSchemaURL)
	switch {
	case err == nil:
		return &CompiledSchema{schema: sch, fast: rawschema.Compile(doc)}
	case isLoadError(err):
		return &CompiledSchema{Unresolved: true}
	}
	return &CompiledSchema{Invalid: leafCause(err)}
}

func isLoadError(err error) bool {
	var load *jsonschema.LoadURLError
	var scheme *jsonschema.UnsupportedURLSchemeError
	var draft *jsonschema.UnsupportedDraftError
	return errors.As(err, &load) || errors.As(err, &scheme) || errors.As(err, &draft)
}

// Validate checks an instance against a compiled schema; the error says
// where and why it does not conform. What the fast form proves valid skips
// the library, which decodes the instance into maps first. The instance is
// Checked text, whose grammar the fast form does not check again; the zero
// Checked, of text that is not JSON, the library refuses.
func (c *CompiledSchema) Validate(instance rawjson.Checked) error {
	if c.fast.Valid(instance, false) {
		return nil
	}
	return c.validateWithLibrary(instance.Bytes())
}

// validateWithLibrary is the full validation, the one that says why.
func (c *CompiledSchema) validateWithLibrary(instance json.RawMessage) error {
	v, ok := rawjson.Decode(instance)
	if !ok {
		return fmt.Errorf("the value is not JSON")
	}
	return libraryValidate(c.schema, v)
}

// ErrUndecided is the validation error of an instance the library could
// not judge: it is neither held to conform nor held not to.
var ErrUndecided = errors.New("the JSON Schema library could not decide")

// libraryValidate runs the library on a decoded instance. The library
// panics on some inputs a party can send (a number whose exponent it
// cannot make exact, such as -1E1000001 against a minimum); the judge
// reads untrusted traces, so such an instance is left undecided instead.
func libraryValidate(sch *jsonschema.Schema, v any) (err error) {
	defer func() {
		if recover() != nil {
			err = ErrUndecided
		}
	}()
	if err := sch.Validate(v); err != nil {
		return errors.New(leafCause(err))
	}
	return nil
}

// leafCause makes a validation error one line: its first leaf cause, which
// names the offending location.
func leafCause(err error) string {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		err = sve.Err // the schema against its meta-schema: say where it fails
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return oneLine(err.Error())
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return oneLine(ve.Error())
}

// oneLine keeps the first line of a library message, bounded.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// Usable reports whether instances can be validated against the schema.
func (c *CompiledSchema) Usable() bool { return c != nil && c.schema != nil }

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a number"
}

// ValidateArguments validates tools/call arguments as withoutNulls reads
// them. The fast form reads null members as absent itself, so only the
// arguments it does not prove valid are rewritten for the library.
// The zero Checked, of absent arguments, reads as none.
func (c *CompiledSchema) ValidateArguments(args rawjson.Checked) error {
	text := args
	if isNoArguments(args.Bytes()) {
		text = noArguments
	}
	if c.fast.Valid(text, true) {
		return nil
	}
	return c.validateWithLibrary(WithoutNulls(args.Bytes()))
}

// noArguments is the text absent or null arguments read as.
var noArguments, _ = rawjson.Check([]byte(`{}`))

func isNoArguments(args []byte) bool { return args == nil || string(args) == "null" }

// argumentsOrEmpty reads absent or null arguments as no arguments.
func argumentsOrEmpty(args json.RawMessage) json.RawMessage {
	if isNoArguments(args) {
		return noArguments.Bytes()
	}
	return args
}

// WithoutNulls reads null arguments as absent, as the Streamable HTTP
// transport does for mirrored parameters: a server that accepts null for
// an optional argument has not skipped validation.
func WithoutNulls(args json.RawMessage) json.RawMessage {
	args = argumentsOrEmpty(args)
	if !bytes.Contains(args, []byte("null")) {
		return args // nothing to drop: the same value as rewritten
	}
	var obj map[string]json.RawMessage
	if !message.Decode(args, &obj) {
		return args
	}
	for k, v := range obj {
		if string(v) == "null" {
			delete(obj, k)
		} else {
			obj[k] = WithoutNulls(v)
		}
	}
	out, _ := json.Marshal(obj)
	return out
}
