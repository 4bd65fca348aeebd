package rawschema

import (
	"strings"
)

// Format is how a document's "format" keyword is read: the validator it
// mirrors asserts some formats and treats others as annotations.
type Format int

// The formats a document may assert.
const (
	// FormatAnnotation asserts nothing.
	FormatAnnotation Format = iota + 1
	// FormatBase64 asserts that a string decodes as standard base64, as
	// encoding/base64's StdEncoding does.
	FormatBase64
)

// Document is a whole schema document whose definitions are compiled into
// fast forms that follow $ref within it, and read anyOf, allOf and the
// formats given. A subschema outside the subset is undecided: an instance
// that reaches it is not proven valid, while the rest of the document
// still decides. A Document is safe for concurrent use once made.
type Document struct {
	root    map[string]any
	formats map[string]Format
	// refs holds each reference once compiled, so that recursive
	// definitions share their forms.
	refs map[string]*Schema
}

// NewDocument prepares a schema document, decoded as rawjson.Decode
// decodes it, for Definition; nil when its dialect is not one the subset
// reads alike.
func NewDocument(doc any, formats map[string]Format) *Document {
	root, ok := doc.(map[string]any)
	if !ok || !dialectSupported(root) {
		return nil
	}
	return &Document{root: root, formats: formats, refs: map[string]*Schema{}}
}

// Definition compiles the subschema at a reference within the document
// ("#/$defs/Name"); nil when there is none. Call it before sharing the
// Document between goroutines: it fills the Document's memory.
func (d *Document) Definition(ref string) *Schema {
	if d == nil {
		return nil
	}
	s := (&document{doc: d}).resolve(ref)
	if s.undecided {
		return nil
	}
	return s
}

// document is one compilation within a Document: direct holds the
// references followed since the instance was last entered (a property, an
// item), so that a reference that leads back to itself without entering
// the instance is left undecided rather than followed for ever.
type document struct {
	doc    *Document
	direct []string
}

// nested is the compilation of a subschema that applies to a value within
// the instance.
func (d *document) nested() *document {
	if d == nil {
		return nil
	}
	return &document{doc: d.doc}
}

// failed is what a subschema outside the subset compiles to.
func (d *document) failed() (*Schema, bool) {
	if d == nil {
		return nil, false
	}
	return undecided(), true
}

func undecided() *Schema { return &Schema{undecided: true} }

// refAlone reports whether a schema's $ref, if any, stands with nothing but
// annotations beside it: drafts before 2019-09 ignore what stands beside
// it, later ones apply it too, and the subset decides only where they agree.
func (d *document) refAlone(v map[string]any) bool {
	if _, ok := v["$ref"]; !ok {
		return true
	}
	for keyword := range v {
		if keyword != "$ref" && !annotations[keyword] && !strings.HasPrefix(keyword, "x-") {
			return false
		}
	}
	return true
}

func (d *document) resolve(ref string) *Schema {
	for _, r := range d.direct {
		if r == ref {
			return undecided()
		}
	}
	if s, ok := d.doc.refs[ref]; ok {
		return s
	}
	target, ok := d.doc.lookup(ref)
	if !ok {
		return undecided()
	}
	s := &Schema{}
	d.doc.refs[ref] = s
	within := &document{doc: d.doc, direct: append(d.direct[:len(d.direct):len(d.direct)], ref)}
	compiled, ok := within.compile(target, ref == "#")
	if !ok {
		compiled = undecided()
	}
	*s = *compiled
	return s
}

// lookup finds the value a reference within the document names: a JSON
// pointer in a fragment, without the escapes a URI fragment may hold.
func (d *Document) lookup(ref string) (any, bool) {
	pointer, ok := strings.CutPrefix(ref, "#")
	if !ok || strings.Contains(pointer, "%") {
		return nil, false
	}
	var at any = d.root
	if pointer == "" {
		return at, true
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, false
	}
	for _, token := range strings.Split(pointer[1:], "/") {
		obj, isObject := at.(map[string]any)
		if !isObject {
			return nil, false
		}
		token = strings.NewReplacer("~1", "/", "~0", "~").Replace(token)
		if at, ok = obj[token]; !ok {
			return nil, false
		}
	}
	return at, true
}

// addInDocument reads the keywords only a document's compilation holds.
func (b *builder) addInDocument(keyword string, value any) bool {
	switch keyword {
	case "$ref":
		ref, ok := value.(string)
		if ok {
			b.s.ref = b.d.resolve(ref)
		}
		return ok
	case "anyOf", "allOf":
		list, ok := value.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		subs := make([]*Schema, len(list))
		for i, v := range list {
			if subs[i], ok = b.d.compile(v, false); !ok {
				return false
			}
		}
		if keyword == "anyOf" {
			b.s.anyOf = subs
		} else {
			b.s.allOf = subs
		}
		return true
	case "format":
		name, _ := value.(string)
		switch b.d.doc.formats[name] {
		case FormatAnnotation:
			return true
		case FormatBase64:
			b.s.str.base64 = true
			return true
		}
		return false
	case "$defs", "definitions":
		return true // definitions apply only where referenced
	}
	return false
}

// Split parts an object schema at one of its properties: shell is the
// schema with that property's value unconstrained, part the property's
// schema, so that a value valid under shell whose member is valid under
// part is valid under s. A caller that remembers which member texts
// were valid checks only the shell of a message whose member repeats. False
// when s is not an object schema of its own properties alone.
func (s *Schema) Split(name string) (shell, part *Schema, ok bool) {
	if s == nil || s.undecided || s.ref != nil || len(s.anyOf) > 0 || len(s.allOf) > 0 {
		return nil, nil, false
	}
	at := s.object.lookup([]byte(name))
	if at < 0 || s.object.members[at].schema == nil {
		return nil, nil, false
	}
	c := *s
	c.object.members = append([]member(nil), s.object.members...)
	c.object.members[at].schema = newSchema()
	return &c, s.object.members[at].schema, true
}
