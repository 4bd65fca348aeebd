package exampleserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxCompletions is the most values one completion result may carry.
const maxCompletions = 100

// complete answers completion/complete for prompt arguments and for the
// notes:// template's variable. A reference to something this server does
// not have is invalid params, as the specification suggests.
func (e *exampleServer) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	choices, err := e.completionChoices(req.Params.Ref, req.Params.Argument.Name)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	return completionResult(rankMatches(choices(), req.Params.Argument.Value)), nil
}

func (e *exampleServer) completionChoices(ref *mcp.CompleteReference, arg string) (func() []string, error) {
	switch ref.Type {
	case "ref/prompt":
		return e.promptChoices(ref.Name, arg)
	case "ref/resource":
		if ref.URI != noteTemplate {
			return nil, fmt.Errorf("no resource template %q: the only template is %s", ref.URI, noteTemplate)
		}
		if arg != noteTemplateArg {
			return nil, fmt.Errorf("template %s has no variable %q; it has %q", noteTemplate, arg, noteTemplateArg)
		}
		return e.notes.names, nil
	}
	return nil, fmt.Errorf("unknown reference type %q", ref.Type)
}

func (e *exampleServer) promptChoices(prompt, arg string) (func() []string, error) {
	def, ok := e.prompts[prompt]
	if !ok {
		return nil, fmt.Errorf("no prompt named %q", prompt)
	}
	choices, ok := def.choices[arg]
	if !ok {
		return nil, fmt.Errorf("prompt %q has no argument %q", prompt, arg)
	}
	return choices, nil
}

// rankMatches orders the values that match what the user typed by
// relevance: those that start with it first, then those that merely
// contain it, each group in its given order. Case is ignored.
func rankMatches(values []string, typed string) []string {
	typed = strings.ToLower(typed)
	var prefixed, containing []string
	for _, v := range values {
		lower := strings.ToLower(v)
		switch {
		case strings.HasPrefix(lower, typed):
			prefixed = append(prefixed, v)
		case strings.Contains(lower, typed):
			containing = append(containing, v)
		}
	}
	return append(prefixed, containing...)
}

func completionResult(matches []string) *mcp.CompleteResult {
	values := make([]string, 0, min(len(matches), maxCompletions))
	values = append(values, matches[:min(len(matches), maxCompletions)]...)
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{
		Values:  values,
		Total:   len(matches),
		HasMore: len(matches) > maxCompletions,
	}}
}
