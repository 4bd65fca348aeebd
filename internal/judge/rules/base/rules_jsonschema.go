package base

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/judge/schemas"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	textmessage "golang.org/x/text/message"
)

// JSON Schema usage: every schema a message carries (tool input and output
// schemas, elicitation requested schemas, sampling tools) is valid under its
// dialect, and the dialect is the recommended 2020-12.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{{Kinds: engine.RequestMsgs | engine.ResultMsgs}},
		Checks: []engine.Check{
			{ID: "jsonschema.valid", Summary: "every JSON Schema a message carries is valid under its declared or default (2020-12) dialect"},
			{ID: "jsonschema.dialect-2020-12", Summary: "the JSON Schemas a party sends use the 2020-12 dialect"},
		},
		New: func() engine.Rule { return &jsonSchemaRule{} },
	})
}

type jsonSchemaRule struct {
	engine.BaseRule
	// verdicts remembers what checkSchema found for each distinct schema
	// text.
	verdicts map[string]schemaVerdict
	// sound is the last text whose every schema passed.
	sound soundText
}

// maxSchemaVerdicts bounds jsonSchemaRule.verdicts; a session rarely
// carries more distinct schemas than this.
const maxSchemaVerdicts = 256

// schemaVerdict is what one schema was found to be: "" when sound.
type schemaVerdict struct{ dialect, validity string }

// schemaNeedle is in the bytes of every message that carries a schema
// member (inputSchema, outputSchema, requestedSchema).
var schemaNeedle = message.NewRareNeedle(`Schema"`)

// schemaMembers name the members whose value is a JSON Schema.
var schemaMembers = map[string]bool{"inputSchema": true, "outputSchema": true, "requestedSchema": true}

const dialect202012 = "https://json-schema.org/draft/2020-12/schema"

// dialects maps the $schema values this build knows to the meta-schema that
// judges them; an unknown $schema is not judged for validity.
var dialects = map[string]string{
	"":            dialect202012,
	dialect202012: dialect202012,
	"https://json-schema.org/draft/2019-09/schema": "https://json-schema.org/draft/2019-09/schema",
	"http://json-schema.org/draft-07/schema":       "http://json-schema.org/draft-07/schema#",
	"http://json-schema.org/draft-06/schema":       "http://json-schema.org/draft-06/schema#",
	"http://json-schema.org/draft-04/schema":       "http://json-schema.org/draft-04/schema#",
}

func (r *jsonSchemaRule) Message(s *engine.Session, m *message.Msg) {
	if m.Kind != message.KindRequest && m.Kind != message.KindResult || !schemas.MayHold(m, schemaNeedle) {
		return
	}
	body, _ := schemas.MessageBody(m)
	if r.sound.text != nil && bytes.Equal(r.sound.text, body) {
		r.sound.passAgain(s, m.From)
		return
	}
	seen := soundText{text: body}
	failed := false
	schemas.WalkMembers(m, schemaNeedle, func(key []byte, val json.RawMessage, at *schemas.WalkPath) bool {
		if schemaMembers[string(key)] && rawjson.Kind(val) == '{' {
			v := r.checkSchema(s, m, val, at)
			failed = failed || v.dialect != "" || (v.validity != "" && v.validity != notJudged)
			seen.schemas++
			if v.validity == "" {
				seen.valid++
			}
		}
		return true
	})
	if !failed && seen.schemas > 0 {
		r.sound = seen
	}
}

// soundText is a params or result text whose every schema passed: how
// many schemas it holds, and how many of them were judged valid. A client
// lists the same tools again and again; the same text passes the same
// checks again without being walked.
type soundText struct {
	text           []byte
	schemas, valid int
}

func (t soundText) passAgain(s *engine.Session, from spec.Party) {
	for range t.schemas {
		s.Pass("jsonschema.dialect-2020-12", from)
	}
	for range t.valid {
		s.Pass("jsonschema.valid", from)
	}
}

func (r *jsonSchemaRule) checkSchema(s *engine.Session, m *message.Msg, schema json.RawMessage, at *schemas.WalkPath) schemaVerdict {
	v := r.verdict(schema)
	if v.dialect != "" {
		s.Fail("jsonschema.dialect-2020-12", m.From, m.Event, "the schema at %s %s", at, v.dialect)
	} else {
		s.Pass("jsonschema.dialect-2020-12", m.From)
	}
	switch v.validity {
	case "":
		s.Pass("jsonschema.valid", m.From)
	case notJudged:
	default:
		s.Fail("jsonschema.valid", m.From, m.Event, "the schema at %s %s", at, v.validity)
	}
	return v
}

// notJudged marks a schema whose declared dialect this build has no
// meta-schema for.
const notJudged = "-"

// verdict judges a schema by its text: the same text is the same schema,
// and a server lists the same tools again and again.
func (r *jsonSchemaRule) verdict(schema json.RawMessage) schemaVerdict {
	if v, ok := r.verdicts[string(schema)]; ok {
		return v
	}
	if r.verdicts == nil || len(r.verdicts) >= maxSchemaVerdicts {
		r.verdicts = map[string]schemaVerdict{}
	}
	doc, _ := schemas.DecodeAny(schema)
	v := judgeSchema(doc.(map[string]any))
	r.verdicts[string(schema)] = v
	return v
}

func judgeSchema(schema map[string]any) schemaVerdict {
	declared, _ := schema["$schema"].(string)
	uri := strings.TrimSuffix(declared, "#")
	var v schemaVerdict
	if dialects[uri] != dialect202012 {
		v.dialect = fmt.Sprintf("declares $schema %q; JSON Schema 2020-12 is the recommended dialect", declared)
	}
	meta := metaSchema(dialects[uri])
	if meta == nil {
		v.validity = notJudged
		return v
	}
	if err := meta.Validate(schema); err != nil {
		v.validity = fmt.Sprintf("is not a valid %s schema: %s", dialectName(uri), schemaErrorSummary(err))
	}
	return v
}

func dialectName(uri string) string {
	if uri == "" {
		return "JSON Schema 2020-12 (the default dialect)"
	}
	return uri
}

var metaSchemas = sync.OnceValue(func() map[string]*jsonschema.Schema {
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{}) // meta-schemas are built in; nothing is fetched
	out := map[string]*jsonschema.Schema{}
	for _, url := range dialects {
		sch, err := c.Compile(url)
		if err != nil {
			panic(fmt.Sprintf("judge: built-in meta-schema %s: %v", url, err))
		}
		out[url] = sch
	}
	return out
})

func metaSchema(url string) *jsonschema.Schema {
	if url == "" {
		return nil
	}
	return metaSchemas()[url]
}

var englishPrinter = textmessage.NewPrinter(language.English)

// schemaErrorSummary names the leaves of a validation error, sorted so the
// message is the same whatever order the validator met them in.
func schemaErrorSummary(err error) string {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err.Error()
	}
	var leaves []string
	collectLeaves(ve, &leaves)
	sort.Strings(leaves)
	leaves = slices.Compact(leaves)
	if len(leaves) > 3 {
		leaves = append(leaves[:3], fmt.Sprintf("and %d more", len(leaves)-3))
	}
	return strings.Join(leaves, "; ")
}

func collectLeaves(ve *jsonschema.ValidationError, out *[]string) {
	if len(ve.Causes) == 0 {
		*out = append(*out, fmt.Sprintf("at '/%s': %s", strings.Join(ve.InstanceLocation, "/"), ve.ErrorKind.LocalizedString(englishPrinter)))
		return
	}
	for _, c := range ve.Causes {
		collectLeaves(c, out)
	}
}
