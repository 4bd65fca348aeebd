package judge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
)

func corpusSchemas(t testing.TB) map[string]*wireschema.Validator {
	t.Helper()
	dir := os.Getenv(wireschema.EnvDir)
	if dir == "" && os.Getenv("MCPVERDICT_SPEC_DIR") != "" {
		dir = filepath.Join(os.Getenv("MCPVERDICT_SPEC_DIR"), "schema")
	}
	if dir == "" {
		dir = filepath.Join(judgetest.CorpusRoot(t), "..", "..", "shared", "mcp-spec", "schema")
	}
	out := map[string]*wireschema.Validator{}
	for _, rev := range spec.Revisions {
		v, err := wireschema.Load(filepath.Join(dir, rev, "schema.json"), rev)
		if err != nil {
			t.Fatal(err)
		}
		out[rev] = v
	}
	return out
}

// Every message of every conforming and recorded corpus trace is valid
// under its revision's JSON Schema; a violation trace whose header says
// "wire: invalid" must have at least one invalid message (other violation
// traces may break the schema along with their clause).
func TestCorpusWireSchema(t *testing.T) {
	schemas := corpusSchemas(t)
	for _, ct := range judgetest.LoadCorpus(t) {
		rep := judgeTraceWith(t, ct, engine.Options{Revisions: ct.Revisions, Party: ct.Party, Schemas: schemas})
		for _, run := range rep.Runs {
			w := run.Wire
			switch {
			case !w.Checked:
				t.Errorf("%s: not checked: %s", ct.Name, w.NotChecked)
			case ct.WireInvalid && len(w.Invalid) == 0:
				t.Errorf("%s: header expects invalid messages, all %d are valid", ct.Name, w.Valid)
			case !ct.WireInvalid && len(w.Invalid) > 0 && !ct.Violation:
				t.Errorf("%s: %d invalid message(s), first at line %d: %s at %q: %s",
					ct.Name, len(w.Invalid), w.Invalid[0].Line, w.Invalid[0].Definition, w.Invalid[0].Pointer, w.Invalid[0].Error)
			}
		}
	}
}

func TestWireFindingsFailTheVerdict(t *testing.T) {
	schemas := corpusSchemas(t)
	for _, ct := range judgetest.LoadCorpus(t) {
		if !ct.WireInvalid || len(ct.Expect) > 0 {
			continue
		}
		rep := judgeTraceWith(t, ct, engine.Options{Revisions: ct.Revisions, Schemas: schemas})
		if rep.Verdict != engine.VerdictFail {
			t.Errorf("%s: invalid messages but verdict %s", ct.Name, rep.Verdict)
		}
	}
}
