package wireschema

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Kind is the shape of the message being validated.
type Kind int

// The message shapes the dispatcher tells apart.
const (
	Request Kind = iota
	Notification
	Result
	Error
	// Any is a message of no recognisable shape, held to JSONRPCMessage.
	Any
)

// Message is what the dispatcher needs to know about one message.
type Message struct {
	Kind Kind
	// Method of a request or notification.
	Method string
	// RequestMethod is, for a result or error, the method of the request it
	// answers ("" when unknown).
	RequestMethod string
	// Body is the message's JSON text; for a result, the whole response.
	Body []byte
	// Text is Body as the judge's reader checked it; the zero Checked
	// when the caller has not, and Body is checked here.
	Text rawjson.Checked
	// Params and Result are those members as the judge read them, within
	// Text (nil when absent or unknown).
	Params, Result []byte
}

// Problem is one way a message breaks the schema.
type Problem struct {
	// Definition is the schema definition the message was held to.
	Definition string `json:"definition"`
	// Pointer is the JSON pointer of the offending value in the message.
	Pointer string `json:"pointer"`
	Error   string `json:"error"`
}

// Validate holds a message to the definitions its kind and method select:
// the whole message to the request or notification definition; a result's
// envelope to JSONRPCResultResponse (JSONRPCResponse before 2025-11-25) and
// its result member to the answering request's result definition; an error
// to JSONRPCErrorResponse (JSONRPCError before). A
// Checker does the same and remembers what it found.
func (v *Validator) Validate(m Message) ([]Problem, error) {
	return v.validate(m, nil, nil)
}

func (v *Validator) validate(m Message, seen *seenTexts, proven *provenTexts) ([]Problem, error) {
	targets, n := v.targets(m, true)
	if v.allProven(targets[:n], proven) {
		return nil, nil
	}
	// What the fast forms leave to the library is read from the text
	// alone, as the library reads it, not from the judge's reading.
	var problems []Problem
	var doc docCache
	targets, n = v.targets(m, false)
	for _, t := range targets[:n] {
		if v.provenValid(t, proven) {
			continue
		}
		if p, ok := seen.lookup(t); ok {
			problems = append(problems, p...)
			continue
		}
		inst, err := doc.instance(m.Body, t)
		if err != nil {
			return []Problem{{Definition: "JSON", Pointer: "", Error: "not JSON: " + err.Error()}}, nil
		}
		p, err := v.check(t.def, t.pointer, inst)
		if err != nil {
			return nil, err
		}
		seen.remember(t, p)
		problems = append(problems, p...)
	}
	return problems, nil
}

// target is one definition a message is held to, and the text held to it:
// the whole message, or its result member.
type target struct {
	def, pointer string
	text         []byte
	// checked is text as Checked, the zero Checked when it is not JSON.
	checked rawjson.Checked
	// member is the value of the member the definition's fast form splits
	// at (params, result), as the judge read it; zero when unknown.
	member rawjson.Checked
}

// targets are at most two: a result's envelope and its result member;
// judged takes params and result as the judge read them.
func (v *Validator) targets(m Message, judged bool) (out [2]target, n int) {
	whole := m.Text
	if whole.Bytes() == nil {
		whole, _ = rawjson.Check(m.Body)
	}
	if !judged {
		m.Params, m.Result = nil, nil
	}
	params, _ := whole.Within(m.Params)
	switch m.Kind {
	case Request:
		out[0] = target{v.methodDef(m.Method, "JSONRPCRequest"), "", m.Body, whole, params}
	case Notification:
		out[0] = target{v.methodDef(m.Method, "JSONRPCNotification"), "", m.Body, whole, params}
	case Error:
		out[0] = target{v.errorResponse, "", m.Body, whole, rawjson.Checked{}}
	case Any:
		out[0] = target{"JSONRPCMessage", "", m.Body, whole, rawjson.Checked{}}
	default:
		out[0] = target{v.resultResponse, "", m.Body, whole, rawjson.Checked{}}
		if result := resultOf(m, whole); result.Bytes() != nil {
			if judged {
				out[0].member = result
			}
			out[1] = target{v.resultDef(m.RequestMethod, result), "/result", result.Bytes(), result, rawjson.Checked{}}
			return out, 2
		}
	}
	return out, 1
}

// resultTypeAndTask reads a result's resultType and task members (the
// last of each) in one pass.
func resultTypeAndTask(result rawjson.Checked) (resultType, task []byte) {
	it := result.Members()
	for it.Next() {
		switch {
		case it.KeyIs("resultType"):
			resultType = it.CheckedValue().Bytes()
		case it.KeyIs("task"):
			task = it.CheckedValue().Bytes()
		}
	}
	return resultType, task
}

// allProven reports whether the fast forms prove every target valid.
func (v *Validator) allProven(targets []target, proven *provenTexts) bool {
	for _, t := range targets {
		if !v.provenValid(t, proven) {
			return false
		}
	}
	return true
}

// resultOf is the result member of a response: as the judge read it,
// when it did, else read from the checked text, whose grammar the reader
// has checked already.
func resultOf(m Message, whole rawjson.Checked) rawjson.Checked {
	if result, ok := whole.Within(m.Result); ok {
		return result
	}
	if whole.Bytes() != nil {
		return whole.TrimSpace().Member("result")
	}
	result, _ := rawjson.Check(rawjson.Member(m.Body, "result"))
	return result
}

// docCache decodes a message at most once for the targets that need it.
type docCache struct {
	body    any
	decoded bool
}

// instance decodes what a target holds to its definition: the message,
// decoded once, or a member of it, taken from the decoded message when it
// was needed whole and decoded alone otherwise.
func (d *docCache) instance(body []byte, t target) (any, error) {
	if t.pointer == "" || d.decoded {
		if !d.decoded {
			doc, err := decode(body)
			if err != nil {
				return nil, err
			}
			d.body, d.decoded = doc, true
		}
		if t.pointer == "" {
			return d.body, nil
		}
		obj, _ := d.body.(map[string]any)
		return obj[strings.TrimPrefix(t.pointer, "/")], nil
	}
	return decode(t.text)
}

// decode is jsonschema.UnmarshalJSON, by rawjson.Decode, which gives the
// same value faster (rawjson's decode benchmarks); the library says what
// is wrong with a text that is not JSON.
func decode(text []byte) (any, error) {
	if v, ok := rawjson.Decode(text); ok {
		return v, nil
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(text))
}

func (v *Validator) methodDef(method, fallback string) string {
	if d := v.methods[method]; d != "" {
		return d
	}
	return fallback
}

// resultDef names the definition a result is held to: the answering
// request's FooRequest -> FooResult, EmptyResult for requests whose result
// has no definition of its own (ping, subscribe, setLevel), and
// InputRequiredResult for a 2026-07-28 result that asks for input, and
// CreateTaskResult for a 2025-11-25 task-augmented request's answer (a
// result whose task member no other result definition has).
func (v *Validator) resultDef(requestMethod string, result rawjson.Checked) string {
	resultType, task := resultTypeAndTask(result)
	if t, _ := rawjson.Unquote(resultType); t == "input_required" && v.defs["InputRequiredResult"] {
		return "InputRequiredResult"
	}
	if rawjson.Kind(task) == '{' && v.defs["CreateTaskResult"] {
		return "CreateTaskResult"
	}
	req := v.methods[requestMethod]
	if req == "" {
		return "Result"
	}
	if d := strings.TrimSuffix(req, "Request") + "Result"; v.defs[d] {
		return d
	}
	return "EmptyResult"
}

func (v *Validator) check(def, prefix string, inst any) ([]Problem, error) {
	s, err := v.schema(def)
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", def, err)
	}
	err = s.Validate(inst)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, err
	}
	problems := leafProblems(def, prefix, ve)
	// The validator meets an object's members in map order, which changes
	// from run to run; the report must not.
	sort.SliceStable(problems, func(i, j int) bool {
		if problems[i].Pointer != problems[j].Pointer {
			return problems[i].Pointer < problems[j].Pointer
		}
		return problems[i].Error < problems[j].Error
	})
	return problems, nil
}

// leafProblems reports the deepest causes, which say what is actually wrong
// rather than that some branch of a union failed.
func leafProblems(def, prefix string, ve *jsonschema.ValidationError) []Problem {
	if len(ve.Causes) == 0 {
		return []Problem{{Definition: def, Pointer: prefix + pointer(ve.InstanceLocation), Error: ve.ErrorKind.LocalizedString(printer)}}
	}
	var out []Problem
	for _, c := range ve.Causes {
		out = append(out, leafProblems(def, prefix, c)...)
	}
	return out
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, seg := range loc {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(seg))
	}
	return b.String()
}
