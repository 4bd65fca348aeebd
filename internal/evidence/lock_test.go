package evidence

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

func served(t *testing.T, tools ...string) []canon.Value {
	t.Helper()
	var out []canon.Value
	for _, s := range tools {
		v, err := canon.Decode([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

const (
	echoV1   = `{"name":"echo","description":"Echo a message","inputSchema":{"type":"object","properties":{"m":{"type":"string"}}},"annotations":{"readOnlyHint":true},"_meta":{"x":1}}`
	echoV2   = `{"name":"echo","description":"Echo a message, loudly","inputSchema":{"type":"object","properties":{"m":{"type":"string"}}},"annotations":{"readOnlyHint":false},"title":"Echo","_meta":{"x":2}}`
	removed  = `{"name":"gone","inputSchema":{"type":"object"}}`
	addition = `{"name":"fresh","inputSchema":{"type":"object"}}`
)

func lockOf(t *testing.T, tools ...string) *Declared {
	t.Helper()
	lock, err := Lock("srv", served(t, tools...), LockRecipe)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mcp-contract.json")
	if err := WriteLock(path, lock); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	d, err := ReadDeclared(path, b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestLockIsAManifestThatBindsEveryTool(t *testing.T) {
	d := lockOf(t, echoV1, removed)
	if d.Recipe != Recipe3 || len(d.Tools) != 2 || d.Tools[0].Name != "echo" {
		t.Fatalf("%+v", d)
	}
	obsHash, _ := Fingerprint(FromServed(served(t, echoV1)[0]), Recipe3)
	o := &Observed{Observations: []Observation{{Index: 1, Tool: "echo", ContractHash: obsHash, Recipe: Recipe3}}}
	rep, err := Validate(d, o)
	if err != nil || len(rep.Findings) != 0 || len(rep.Healthy) != 1 {
		t.Fatalf("a lockfile read as a manifest does not bind its tools: %+v %v", rep, err)
	}
}

func TestDiffShowsEachChangedFieldAndNewAndRemovedTools(t *testing.T) {
	findings, err := Diff(lockOf(t, echoV1, removed), served(t, echoV2, addition))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range findings {
		got = append(got, string(f.Check)+":"+f.Tool)
	}
	if strings.Join(got, " ") != "contract_mutated:echo tool_removed:gone tool_added:fresh" {
		t.Fatalf("findings %v", got)
	}
	b, _ := json.Marshal(findings[0].Changes)
	want := `[{"field":"description","old":"Echo a message","new":"Echo a message, loudly"},{"field":"annotations","old":{"readOnlyHint":true},"new":{"readOnlyHint":false}},{"field":"title","new":"Echo"}]`
	if string(b) != want {
		t.Errorf("changes %s\nwant    %s", b, want)
	}
	if same, _ := Diff(lockOf(t, echoV1), served(t, echoV1)); len(same) != 0 {
		t.Errorf("an unchanged tool drifted: %+v", same)
	}
}

func TestAttachLocationsFindsTheDeclaringLine(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src", "server.ts"), []byte("// echo\nconst x = 1;\nserver.registerTool(\"echo\", {\n"), 0o644)
	findings := []Finding{{Tool: "echo"}, {Tool: "nowhere"}}
	AttachLocations(findings, root)
	if l := findings[0].Location; l == nil || l.Path != "src/server.ts" || l.Line != 3 {
		t.Errorf("echo at %+v", l)
	}
	if findings[1].Location != nil {
		t.Errorf("nowhere found at %+v", findings[1].Location)
	}
}
