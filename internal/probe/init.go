package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
)

// todo starts every placeholder init writes: Load refuses a definition
// that still holds one, so a skeleton cannot run by accident.
const todo = "TODO(mcpverdict): "

// InitOptions shape `probe init`.
type InitOptions struct {
	// Timeout bounds start-up, initialize and listing (default 30s).
	Timeout time.Duration
	// Seed is the file or folder the adapter resets from: its kind, and
	// for JSON and JSON Lines the region and key, are read from it.
	Seed string
	// Output is the definition file to be written; Seed is named relative
	// to its folder.
	Output string
}

// Init starts the server once (in an empty scratch state directory),
// lists its tools and returns a definition skeleton: the command, an
// adapter (placeholders, or what opts.Seed shows), and one [[tools]] entry
// per tool with a placeholder for each required argument and the hints it
// declared as a comment.
func Init(ctx context.Context, argv []string, opts InitOptions) ([]byte, error) {
	if len(argv) == 0 {
		return nil, fmt.Errorf("--server is empty")
	}
	var plan *seedPlan
	if opts.Seed != "" {
		p, err := planSeed(opts.Seed, opts.Output)
		if err != nil {
			return nil, fmt.Errorf("--seed %s: %v", opts.Seed, err)
		}
		plan = p
	}
	tools, err := listForInit(ctx, argv, opts)
	if err != nil {
		return nil, err
	}
	return skeleton(argv, plan, tools), nil
}

type initTool struct {
	contract definition.Contract
	schema   json.RawMessage
}

func listForInit(ctx context.Context, argv []string, opts InitOptions) ([]initTool, error) {
	dir, err := os.MkdirTemp("", "mcpverdict-probe-init-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	exp := definition.Expander{}
	so := &sessionOptions{
		argv: func(string) []string { return argv }, env: func(s string) []string { return exp.Env(nil, s) },
		cwd: func(s string) string { return "" }, startupTimeout: timeout, callTimeout: timeout,
	}
	srv, err := startServer(ctx, so, false, dir, filepath.Join(dir, "init.jsonl"))
	if err != nil {
		return nil, err
	}
	pages, err := srv.handshake(ctx)
	closeErr := srv.close()
	if err != nil {
		return nil, fmt.Errorf("the server did not start and list its tools: %v%s", err, suffix(closeErr))
	}
	return initTools(pages)
}

func suffix(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}

func initTools(pages []json.RawMessage) ([]initTool, error) {
	var out []initTool
	for _, page := range pages {
		contracts, err := definition.ParseContracts(page)
		if err != nil {
			return nil, err
		}
		var p struct {
			Tools []struct {
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		}
		_ = json.Unmarshal(page, &p)
		for i, c := range contracts {
			t := initTool{contract: c}
			if i < len(p.Tools) {
				t.schema = p.Tools[i].InputSchema
			}
			out = append(out, t)
		}
	}
	return out, nil
}

func skeleton(argv []string, plan *seedPlan, tools []initTool) []byte {
	var b strings.Builder
	b.WriteString("# Written by `mcpverdict probe init`. Replace every TODO(mcpverdict) value\n")
	b.WriteString("# (a definition holding one refuses to load), then run\n")
	b.WriteString("# `mcpverdict probe verify-reset` and `mcpverdict probe run` on this file.\n\n")
	fmt.Fprintf(&b, "[server]\ncommand = %s\n", tomlStrings(argv))
	b.WriteString("# {state} is each session's fresh state directory (also in MCPVERDICT_STATE_DIR),\n")
	b.WriteString("# {target} this file's folder, {self} the mcpverdict executable.\n")
	b.WriteString("# env = { DATA_DIR = \"{state}\" }\n\n")
	writeAdapter(&b, plan)
	for _, t := range tools {
		writeToolSkeleton(&b, t)
	}
	return []byte(b.String())
}

func writeToolSkeleton(b *strings.Builder, t initTool) {
	fmt.Fprintf(b, "\n# declared: %s\n[[tools]]\nname = %s\n", hintsComment(t.contract), tomlQuote(t.contract.Tool))
	args := requiredArgs(t.schema)
	if len(args) == 0 {
		b.WriteString("arguments = {}\n")
		return
	}
	b.WriteString("[tools.arguments]\n")
	for _, a := range args {
		fmt.Fprintf(b, "%s = %s\n", tomlKey(a.name), tomlQuote(todo+a.hint))
	}
}

func hintsComment(c definition.Contract) string {
	parts := make([]string, 0, len(definition.HintNames))
	for _, n := range definition.HintNames {
		h := c.Hint(n)
		v := string(h.Value)
		if h.Value == definition.HintMalformed {
			v = "malformed " + h.Raw
		}
		parts = append(parts, n+" "+v)
	}
	return strings.Join(parts, ", ")
}

type argHint struct{ name, hint string }

// requiredArgs lists the required properties of an input schema with their
// type and description.
func requiredArgs(schema json.RawMessage) []argHint {
	var s struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Type        any    `json:"type"`
			Description string `json:"description"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	sort.Strings(s.Required)
	out := make([]argHint, 0, len(s.Required))
	for _, name := range s.Required {
		p := s.Properties[name]
		hint := fmt.Sprintf("<%v>", p.Type)
		if p.Description != "" {
			hint += " " + p.Description
		}
		out = append(out, argHint{name: name, hint: hint})
	}
	return out
}

func tomlStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = tomlQuote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// tomlKey quotes a key unless it is a bare key.
func tomlKey(k string) string {
	for _, r := range k {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return tomlQuote(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}

// tomlQuote writes s as a TOML basic string: quotes and backslashes
// escaped, control characters as \uXXXX.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
