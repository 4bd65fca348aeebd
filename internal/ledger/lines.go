package ledger

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// view is one block as read: its fields' bytes, and for a block in the
// line format, where its canonical content starts.
type view struct {
	hash, index, prevHash, typ []byte
	record                     []byte
	line                       int
}

// recipeBlockTypes are the block types whose records may name contract
// recipes; only they are decoded beyond the chain's own fields.
var recipeBlockTypes = map[string]bool{
	"declaration": true, "observation_batch": true, "report": true,
	"contract_findings": true, "contract_lock": true,
}

func verifyLines(lines *lineReader, first line, firstErr error, res *Result) error {
	res.Format = FormatName + " " + FormatVersion
	c := &chain{res: res, hash: sha256.New()}
	l, err := first, firstErr
	for {
		if len(l.raw) > 0 {
			if l.raw[len(l.raw)-1] != '\n' {
				res.problem("line %d: the last line has no newline: the file was cut short", l.number)
			}
			verifyLine(c, l)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		l, err = lines.next()
	}
}

func verifyLine(c *chain, l line) {
	if b, contentAt, ok := parseCanonicalLine(l.text); ok {
		b.line = l.number
		c.block(&b, []byte("{"), l.text[contentAt:])
		collectRecipes(c.res, b)
		return
	}
	b, content, problem := parseLineSlowly(l.text)
	if problem != "" {
		c.res.problem("line %d: %s", l.number, problem)
		c.res.Head = "" // the chain cannot be followed through this line
		c.res.Blocks++
		return
	}
	b.line = l.number
	c.res.problem("block at position %d (line %d): not in canonical form", c.res.Blocks, l.number)
	c.block(&b, content)
	collectRecipes(c.res, b)
}

// parseCanonicalLine reads a block line already in canonical form without
// allocating. contentAt is where the bytes after the hash member start.
func parseCanonicalLine(t []byte) (b view, contentAt int, ok bool) {
	i := 0
	field := func(prefix string, value bool) []byte {
		if i < 0 || !bytes.HasPrefix(t[i:], []byte(prefix)) {
			i = -1
			return nil
		}
		start := i + len(prefix)
		end := canon.CanonicalEnd(t, start)
		if end < 0 || (!value && (t[start] != '"' || bytes.IndexByte(t[start:end], '\\') >= 0)) {
			i = -1
			return nil
		}
		i = end
		if !value {
			return t[start+1 : end-1]
		}
		return t[start:end]
	}
	b.hash = field(`{"hash":`, false)
	contentAt = i + 1
	b.index = field(`,"index":`, true)
	b.prevHash = field(`,"prev_hash":`, false)
	b.record = field(`,"record":`, true)
	b.typ = field(`,"type":`, false)
	if i < 0 || i != len(t)-1 || t[i] != '}' || !isInteger(b.index) {
		return view{}, 0, false
	}
	return b, contentAt, true
}

func isInteger(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseLineSlowly reads a line that is not in canonical form, to say what
// is wrong with it, and returns the canonical content it would hash.
func parseLineSlowly(t []byte) (view, []byte, string) {
	v, err := canon.Decode(t)
	if err != nil {
		return view{}, nil, fmt.Sprintf("not a ledger block: %v", err)
	}
	b, problem := blockFields(v, "hash", "index", "prev_hash", "record", "type")
	if problem != "" {
		return view{}, nil, problem
	}
	content := canon.Value{Kind: canon.Object}
	for _, m := range v.Members {
		if m.Key != "hash" {
			content.Members = append(content.Members, m)
		}
	}
	out, err := canon.Marshal(content)
	if err != nil {
		return view{}, nil, fmt.Sprintf("not a ledger block: %v", err)
	}
	return b, out, ""
}

// blockFields checks a decoded block has exactly the keys given, each of the
// right type, and returns them as a view.
func blockFields(v canon.Value, keys ...string) (view, string) {
	if v.Kind != canon.Object {
		return view{}, fmt.Sprintf("a block must be an object, not %s", v.Kind.TypeName())
	}
	if len(v.Members) != len(keys) {
		return view{}, fmt.Sprintf("a block has exactly the keys %q, this one has %d keys", keys, len(v.Members))
	}
	var b view
	for _, k := range keys {
		m, ok := v.Get(k)
		if !ok {
			return view{}, fmt.Sprintf("missing %q", k)
		}
		want := canon.String
		if k == "index" {
			want = canon.Number
		}
		if k != "record" && m.Kind != want {
			return view{}, fmt.Sprintf("%q must be a %s, not %s", k, want.TypeName(), m.Kind.TypeName())
		}
		switch k {
		case "hash":
			b.hash = []byte(m.Text)
		case "index":
			b.index = []byte(m.Text)
		case "prev_hash":
			b.prevHash = []byte(m.Text)
		case "type":
			b.typ = []byte(m.Text)
		case "record":
			b.record, _ = canon.Marshal(m)
		}
	}
	return b, ""
}

// collectRecipes notes the contract recipes a record names: its own
// contract_recipe, and its summary's contract_recipes.
func collectRecipes(res *Result, b view) {
	if !recipeBlockTypes[string(b.typ)] {
		return
	}
	rec, err := canon.Decode(b.record)
	if err != nil {
		return
	}
	if r, ok := rec.Get("contract_recipe"); ok && r.Kind == canon.String && r.Text != "" {
		res.addRecipe(r.Text)
	}
	summary, _ := rec.Get("summary")
	list, _ := summary.Get("contract_recipes")
	for _, r := range list.Items {
		if r.Kind == canon.String {
			res.addRecipe(r.Text)
		}
	}
}
