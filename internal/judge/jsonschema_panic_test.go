package judge

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/judge/schemas"
)

// The JSON Schema library panics on a number whose exponent it cannot make
// exact (jsonschema v6.0.3, minimum against -1E1000001). The judge must not
// crash on such arguments, nor hold a server to a verdict nobody reached.
func TestSchemaLibraryPanicLeavesTheInstanceUndecided(t *testing.T) {
	c := schemas.CompileOffline(json.RawMessage(`{"type":"object","properties":{"n":{"type":"number","minimum":0}}}`))
	if !c.Usable() {
		t.Fatal("the schema did not compile")
	}
	for _, args := range []string{`{"n":-1E1000001}`, `{"n":-1e1000001,"m":null}`} {
		err := c.ValidateArguments(judgetest.TextOf([]byte(args), true))
		if !errors.Is(err, schemas.ErrUndecided) {
			t.Errorf("%s: got %v, want the instance left undecided", args, err)
		}
	}
	if err := c.Validate(judgetest.TextOf([]byte(`{"n":-1}`), true)); err == nil || errors.Is(err, schemas.ErrUndecided) {
		t.Errorf("an ordinary violation: got %v", err)
	}
}
