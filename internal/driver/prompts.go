package driver

import (
	"context"
	"encoding/json"
	"errors"
)

type promptArg struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

type prompt struct {
	Name      string      `json:"name"`
	Arguments []promptArg `json:"arguments"`
}

// invalidParams is the JSON-RPC code of a request whose arguments the
// server refused.
const invalidParams = -32602

// prompts lists every prompt and gets each with arguments built from the
// declared ones; when the server refuses the guessed ones, it tries once
// more with values of the other kind.
func (d *run) prompts(ctx context.Context, f *found) {
	if !d.has("prompts") {
		return
	}
	d.listAll(ctx, "prompts/list", "prompts", func(raw json.RawMessage) {
		var p prompt
		if json.Unmarshal(raw, &p) == nil && p.Name != "" {
			f.prompts = append(f.prompts, p)
		}
	})
	for i, p := range f.prompts {
		if i == maxReads || d.ended() != nil {
			break
		}
		d.getPrompt(ctx, p)
	}
}

func (d *run) getPrompt(ctx context.Context, p prompt) {
	args, guessed := d.promptArguments(ctx, p)
	d.step("prompts/get " + p.Name)
	_, err := d.resolve(ctx, "prompts/get", map[string]any{"name": p.Name, "arguments": args}, callOpts{})
	var rpcErr *RPCError
	if len(guessed) == 0 || !errors.As(err, &rpcErr) || (rpcErr.Code != invalidParams && rpcErr.Code != -32603) {
		return
	}
	for name := range guessed {
		args[name] = alternateValue(args[name])
	}
	d.step("prompts/get " + p.Name + " (other argument values)")
	d.resolve(ctx, "prompts/get", map[string]any{"name": p.Name, "arguments": args}, callOpts{})
}

// promptArguments fills every argument, the required ones first: with the
// server's first completion when it offers one, else a guess. guessed names
// the arguments the driver guessed.
func (d *run) promptArguments(ctx context.Context, p prompt) (args map[string]string, guessed map[string]bool) {
	args, guessed = map[string]string{}, map[string]bool{}
	ref := map[string]any{"type": "ref/prompt", "name": p.Name}
	for _, required := range []bool{true, false} {
		for _, a := range p.Arguments {
			if a.Required != required {
				continue
			}
			v, ok := d.complete(ctx, ref, a.Name, args)
			if !ok && !a.Required {
				continue // an optional argument the server cannot complete is left out
			}
			if !ok {
				v = guessValue(a.Name, a.Description)
				guessed[a.Name] = true
			}
			args[a.Name] = v
		}
	}
	return args, guessed
}
