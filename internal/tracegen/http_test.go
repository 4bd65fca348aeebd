package tracegen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
)

// The HTTP mix is a conforming trace: every clause it exercises passes,
// and every message is valid under the revision's JSON Schema, so that a
// benchmark on it measures the judge's work and not a report of failures.
func TestHTTPTraceConforms(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteHTTP(&buf, 6_000); err != nil {
		t.Fatal(err)
	}
	opts := judge.Options{Version: "test"}
	if v := schema(t); v != nil {
		opts.Schemas = map[string]*wireschema.Validator{"2025-11-25": v}
	}
	r := trace.NewReader(bytes.NewReader(buf.Bytes()), "http-mix.jsonl")
	rep := judge.Judge([]judge.Input{{Name: "http-mix.jsonl", Next: r.Next}}, opts)
	run := rep.Runs[0]
	if rep.Verdict != judge.VerdictPass || run.Totals.Warn > 0 {
		for _, c := range run.Clauses {
			if len(c.Findings) > 0 {
				t.Errorf("%s %s: %s", c.Clause.ID, c.Outcome, c.Findings[0].Message)
			}
		}
		t.Fatalf("verdict %s, %+v", rep.Verdict, run.Totals)
	}
	if run.Transport != "streamable-http" || run.Sessions != 4 || run.Totals.Pass < 50 {
		t.Errorf("transport %s, %d sessions, %d clauses passed: the mix lost its shape", run.Transport, run.Sessions, run.Totals.Pass)
	}
	if opts.Schemas != nil && (!run.Wire.Checked || len(run.Wire.Invalid) > 0) {
		t.Errorf("wire schema: checked %v, %d invalid", run.Wire.Checked, len(run.Wire.Invalid))
	}
}

// The same n gives the same bytes.
func TestHTTPTraceIsDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := WriteHTTP(&a, 2_000); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTTP(&b, 2_000); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two traces of the same length differ")
	}
}

// schema loads the 2025-11-25 JSON Schema from the specification sources
// the registry tests read, or nil when they are not here.
func schema(t *testing.T) *wireschema.Validator {
	dir := os.Getenv("MCPVERDICT_SPEC_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "mcp-spec")
	}
	path := filepath.Join(dir, "schema", "2025-11-25", "schema.json")
	if _, err := os.Stat(path); err != nil {
		t.Logf("no schema at %s: the wire schema is not checked", path)
		return nil
	}
	v, err := wireschema.Load(path, "2025-11-25")
	if err != nil {
		t.Fatal(err)
	}
	return v
}
