package wireschema

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/mcpverdict/mcpverdict/internal/rawschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Validator validates messages against one revision's schema. It is safe
// for concurrent use; compiled definitions are cached.
type Validator struct {
	Revision string
	// Path is where the schema was read from, for the report.
	Path     string
	compiler *jsonschema.Compiler
	methods  map[string]string // method -> definition of its request or notification
	defs     map[string]bool
	// defsKey is where the document keeps its definitions: "$defs" from
	// 2025-11-25 (JSON Schema 2020-12), "definitions" before (draft-07).
	defsKey string
	// resultResponse and errorResponse name the envelopes of a result and
	// an error, which the revisions before 2025-11-25 call JSONRPCResponse
	// and JSONRPCError.
	resultResponse, errorResponse string

	// fast holds each definition's fast form, where it has one: what it
	// proves valid needs no decoding and no full validator.
	fast map[string]*fastForm

	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

const resourceName = "mcp-schema.json"

// Load reads and compiles a revision's schema.json, refusing one whose
// SHA-256 is not the pinned one.
func Load(path, rev string) (*Validator, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := CheckPin(rev, data); err != nil {
		return nil, fmt.Errorf("%s: %w; fetch it again with `mcpverdict schema fetch`", path, err)
	}
	return New(rev, path, data)
}

// New compiles a schema document.
func New(rev, path string, data []byte) (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: not JSON: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	assertByteFormatOnly(c)
	if err := c.AddResource(resourceName, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	v := &Validator{Revision: rev, Path: path, compiler: c, compiled: map[string]*jsonschema.Schema{}}
	v.defsKey = definitionsKey(doc)
	v.methods, v.defs = indexDefinitions(doc, v.defsKey)
	v.resultResponse = v.firstDefined("JSONRPCResultResponse", "JSONRPCResponse")
	v.errorResponse = v.firstDefined("JSONRPCErrorResponse", "JSONRPCError")
	v.fast = fastForms(doc, v.defsKey, v.defs)
	return v, nil
}

// wireFormats mirrors assertByteFormatOnly for the fast forms.
var wireFormats = map[string]rawschema.Format{
	"byte": rawschema.FormatBase64,
	"uri":  rawschema.FormatAnnotation, "uri-reference": rawschema.FormatAnnotation,
	"uri-template": rawschema.FormatAnnotation, "iri": rawschema.FormatAnnotation,
	"date-time": rawschema.FormatAnnotation, "email": rawschema.FormatAnnotation,
}

// definitionsKey returns the member of the schema document that holds its
// definitions.
func definitionsKey(doc any) string {
	root, _ := doc.(map[string]any)
	if _, ok := root["$defs"]; !ok {
		if _, ok := root["definitions"]; ok {
			return "definitions"
		}
	}
	return "$defs"
}

// firstDefined returns the first of names the schema defines, else the
// first name, so that a missing envelope is reported by its newest name.
func (v *Validator) firstDefined(names ...string) string {
	for _, name := range names {
		if v.defs[name] {
			return name
		}
	}
	return names[0]
}

// indexDefinitions maps each method to the definition whose "method"
// property is that constant, preferring a definition named after it (a
// union of several notifications also pins one method in some revisions).
func indexDefinitions(doc any, key string) (methods map[string]string, defs map[string]bool) {
	methods, defs = map[string]string{}, map[string]bool{}
	root, _ := doc.(map[string]any)
	all, _ := root[key].(map[string]any)
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
		defs[name] = true
	}
	sort.Strings(names)
	for _, name := range names {
		m := constMethod(all[name])
		if m != "" && (methods[m] == "" || specific(name) && !specific(methods[m])) {
			methods[m] = name
		}
	}
	return methods, defs
}

// specific reports a definition named for one message (FooRequest,
// FooNotification) rather than a union of several.
func specific(name string) bool {
	return (strings.HasSuffix(name, "Request") || strings.HasSuffix(name, "Notification")) &&
		!strings.HasPrefix(name, "Client") && !strings.HasPrefix(name, "Server")
}

func constMethod(def any) string {
	d, _ := def.(map[string]any)
	props, _ := d["properties"].(map[string]any)
	method, _ := props["method"].(map[string]any)
	s, _ := method["const"].(string)
	return s
}

func (v *Validator) schema(def string) (*jsonschema.Schema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.compiled[def]; ok {
		return s, nil
	}
	s, err := v.compiler.Compile(resourceName + "#/" + v.defsKey + "/" + def)
	if err != nil {
		return nil, err
	}
	v.compiled[def] = s
	return s, nil
}

// assertByteFormatOnly makes "format": "byte" (base64, how the schema types
// image, audio and blob data) an assertion, as the MCP schema intends, while
// every other format stays the annotation JSON Schema 2020-12 makes it: the
// schema's "uri" formats describe intent, and asserting RFC 3986 on them
// would report findings the specification does not make.
func assertByteFormatOnly(c *jsonschema.Compiler) {
	c.AssertFormat()
	c.RegisterFormat(&jsonschema.Format{Name: "byte", Validate: validBase64})
	for _, name := range []string{"uri", "uri-reference", "uri-template", "iri", "date-time", "email"} {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(any) error { return nil }})
	}
}

func validBase64(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return fmt.Errorf("not base64: %v", err)
	}
	return nil
}
