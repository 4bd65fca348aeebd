package evidence

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// InputError is a bad input file: it names the file and the JSON path of
// what is wrong.
type InputError struct {
	File string
	Path canon.Path
	Msg  string
}

func (e *InputError) Error() string { return fmt.Sprintf("%s: %s: %s", e.File, e.Path, e.Msg) }

// decodeFile parses a whole input file, turning a syntax error into an
// InputError that names the file.
func decodeFile(file string, data []byte) (canon.Value, error) {
	v, err := canon.Decode(data)
	var syn *canon.SyntaxError
	if errors.As(err, &syn) {
		return v, &InputError{File: file, Path: syn.Path, Msg: fmt.Sprintf("%s (byte %d)", syn.Msg, syn.Offset)}
	}
	return v, err
}

// fields reads typed members of one object, naming the file and path of
// the first thing wrong.
type fields struct {
	file string
	obj  canon.Value
	path canon.Path
}

func (r reader) fields(v canon.Value, p canon.Path) (fields, error) {
	if v.Kind != canon.Object {
		return fields{}, r.fail(p, "expected an object, found %s", v.Kind.TypeName())
	}
	return fields{file: r.file, obj: v, path: p}, nil
}

// reader names the file in errors.
type reader struct{ file string }

func (r reader) fail(p canon.Path, format string, args ...any) error {
	return &InputError{File: r.file, Path: p, Msg: fmt.Sprintf(format, args...)}
}

func (f fields) fail(key, format string, args ...any) error {
	return &InputError{File: f.file, Path: f.path.Key(key), Msg: fmt.Sprintf(format, args...)}
}

// get returns a member, checking its kind when present.
func (f fields) get(key string, kind canon.Kind) (canon.Value, bool, error) {
	v, ok := f.obj.Get(key)
	if !ok {
		return v, false, nil
	}
	if v.Kind != kind {
		return v, true, f.fail(key, "expected %s, found %s", kindArticle(kind), v.Kind.TypeName())
	}
	return v, true, nil
}

func (f fields) require(key string, kind canon.Kind) (canon.Value, error) {
	v, ok, err := f.get(key, kind)
	if err == nil && !ok {
		err = f.fail(key, "missing: expected %s", kindArticle(kind))
	}
	return v, err
}

func (f fields) optString(key string) (string, error) {
	v, _, err := f.get(key, canon.String)
	return v.Text, err
}

// recipe reads an optional contract_recipe: "" when absent or empty, as
// mcp-evidence-validator reads a falsy one.
func (f fields) recipe() (Recipe, error) {
	s, err := f.optString("contract_recipe")
	if err != nil || s == "" {
		return "", err
	}
	r, perr := ParseRecipe(s)
	if perr != nil {
		return "", f.fail("contract_recipe", "%v", perr)
	}
	return r, nil
}

func (f fields) optInt(key string) (int, error) {
	v, ok, err := f.get(key, canon.Number)
	if err != nil || !ok {
		return 0, err
	}
	n, perr := strconv.Atoi(v.Text)
	if perr != nil {
		return 0, f.fail(key, "expected an integer, found %s", v.Text)
	}
	return n, nil
}

func kindArticle(k canon.Kind) string {
	if k == canon.Array || k == canon.Object {
		return "an " + k.TypeName()
	}
	return "a " + k.TypeName()
}
