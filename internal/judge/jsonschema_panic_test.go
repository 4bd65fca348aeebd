package judge

import (
	"encoding/json"
	"errors"
	"testing"
)

// The JSON Schema library panics on a number whose exponent it cannot make
// exact (jsonschema v6.0.3, minimum against -1E1000001). The judge must not
// crash on such arguments, nor hold a server to a verdict nobody reached.
func TestSchemaLibraryPanicLeavesTheInstanceUndecided(t *testing.T) {
	c := compileOffline(json.RawMessage(`{"type":"object","properties":{"n":{"type":"number","minimum":0}}}`))
	if !c.usable() {
		t.Fatal("the schema did not compile")
	}
	for _, args := range []string{`{"n":-1E1000001}`, `{"n":-1e1000001,"m":null}`} {
		err := c.validateArguments(textOf([]byte(args), true))
		if !errors.Is(err, errUndecided) {
			t.Errorf("%s: got %v, want the instance left undecided", args, err)
		}
	}
	if err := c.validate(textOf([]byte(`{"n":-1}`), true)); err == nil || errors.Is(err, errUndecided) {
		t.Errorf("an ordinary violation: got %v", err)
	}
}
