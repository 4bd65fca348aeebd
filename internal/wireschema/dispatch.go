package wireschema

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

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
// envelope to JSONRPCResultResponse and its result member to the answering
// request's result definition; an error to JSONRPCErrorResponse.
func (v *Validator) Validate(m Message) ([]Problem, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(m.Body))
	if err != nil {
		return []Problem{{Definition: "JSON", Pointer: "", Error: "not JSON: " + err.Error()}}, nil
	}
	var problems []Problem
	for _, t := range v.targets(m, inst) {
		p, err := v.check(t.def, t.pointer, t.value)
		if err != nil {
			return nil, err
		}
		problems = append(problems, p...)
	}
	return problems, nil
}

type target struct {
	def, pointer string
	value        any
}

func (v *Validator) targets(m Message, inst any) []target {
	switch m.Kind {
	case Request:
		return []target{{v.methodDef(m.Method, "JSONRPCRequest"), "", inst}}
	case Notification:
		return []target{{v.methodDef(m.Method, "JSONRPCNotification"), "", inst}}
	case Error:
		return []target{{"JSONRPCErrorResponse", "", inst}}
	case Any:
		return []target{{"JSONRPCMessage", "", inst}}
	}
	out := []target{{"JSONRPCResultResponse", "", inst}}
	obj, _ := inst.(map[string]any)
	if result, ok := obj["result"]; ok {
		out = append(out, target{v.resultDef(m.RequestMethod, result), "/result", result})
	}
	return out
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
func (v *Validator) resultDef(requestMethod string, result any) string {
	obj, _ := result.(map[string]any)
	if obj["resultType"] == "input_required" && v.defs["InputRequiredResult"] {
		return "InputRequiredResult"
	}
	if _, isTask := obj["task"].(map[string]any); isTask && v.defs["CreateTaskResult"] {
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
	return leafProblems(def, prefix, ve), nil
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
