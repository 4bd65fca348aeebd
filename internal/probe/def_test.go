package probe_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/probe"
)

const goodDef = `
[server]
command = ["server"]

[[adapters]]
kind = "sqlite"
path = "state.db"
seed = "seed.sql"
business = ["items"]
append_only = ["audit"]
masks = [{ region = "audit", field = "at", kind = "timestamp" }]

[[tools]]
name = "get_item"
arguments = { id = 1 }
`

const goodSeed = `CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO items VALUES (1, 'a');
CREATE TABLE audit (id INTEGER PRIMARY KEY, at TEXT);`

// writeDef writes a definition and its seed into a fresh folder.
func writeDef(t *testing.T, def, seed string) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "probe.toml")
	if err := os.WriteFile(path, []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "seed.sql"), []byte(seed), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadAcceptsAGoodDefinition(t *testing.T) {
	def, err := probe.Load(writeDef(t, goodDef, goodSeed))
	if err != nil {
		t.Fatal(err)
	}
	if def.Tools[0].ID() != "get_item" || def.Name == "" {
		t.Errorf("loaded %+v", def)
	}
}

// TestLoadRefusesBadDefinitions holds every refusal to one line naming the
// file and the key.
func TestLoadRefusesBadDefinitions(t *testing.T) {
	cases := []struct {
		name, def, seed, key, msg string
	}{
		{"unknown key", strings.Replace(goodDef, "business =", "busines =", 1), goodSeed, "adapters.busines", "unknown key"},
		{"TODO placeholder", strings.Replace(goodDef, "id = 1", `id = "TODO(mcpverdict): <integer>"`, 1), goodSeed, "tools[0].arguments.id", "TODO("},
		{"mask region missing", strings.Replace(goodDef, `region = "audit"`, `region = "audits"`, 1), goodSeed, "adapters[0].masks[0]", "not in the seeded state"},
		{"mask field missing", strings.Replace(goodDef, `field = "at"`, `field = "when"`, 1), goodSeed, "adapters[0].masks[0]", "has field"},
		{"mask kind mismatch", goodDef, goodSeed + "\nINSERT INTO audit VALUES (1, 'yesterday');", "adapters[0].masks[0]", "not a timestamp"},
		{"seed fails", goodDef, "CREATE TABLE items (", "adapters[0].seed", "does not load"},
		{"seed missing", strings.Replace(goodDef, "seed.sql", "nope.sql", 1), goodSeed, "adapters[0].seed", "nope.sql"},
		{"classified region missing", strings.Replace(goodDef, `business = ["items"]`, `business = ["itemz"]`, 1), goodSeed, "adapters[0].business", "itemz"},
		{"bad kind", strings.Replace(goodDef, `kind = "sqlite"`, `kind = "postgres"`, 1), goodSeed, "adapters[0].kind", "postgres"},
		{"escaping path", strings.Replace(goodDef, `path = "state.db"`, `path = "../state.db"`, 1), goodSeed, "adapters[0].path", "inside"},
		{"no command", strings.Replace(goodDef, `command = ["server"]`, ``, 1), goodSeed, "server.command", "missing"},
		{"duplicate case", goodDef + "\n[[tools]]\nname = \"get_item\"\n", goodSeed, "tools[1]", "also tools[0]"},
		{"bad expectation", goodDef + "[tools.expected]\nread_only = \"FINE\"\n", goodSeed, "tools[0].expected.read_only", "not a verdict"},
		{"syntax", goodDef + "\n[[tools]\n", goodSeed, "tools", "line 18"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeDef(t, c.def, c.seed)
			_, err := probe.Load(path)
			var de *probe.DefError
			if !errors.As(err, &de) {
				t.Fatalf("got %v, want a *DefError", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, path+": ") {
				t.Errorf("not one line naming the file: %q", msg)
			}
			if de.Key != c.key || !strings.Contains(msg, c.msg) {
				t.Errorf("got key %q, message %q; want key %q and %q", de.Key, msg, c.key, c.msg)
			}
		})
	}
}

func TestLoadTakesNestedArguments(t *testing.T) {
	def := goodDef + "\n[[tools]]\nname = \"create\"\narguments = { entities = [{ name = \"a\", tags = [\"x\"] }], opts = { deep = { ok = true } } }\n"
	d, err := probe.Load(writeDef(t, def, goodSeed))
	if err != nil {
		t.Fatal(err)
	}
	if es, ok := d.Tools[1].Arguments["entities"].([]any); !ok || len(es) != 1 {
		t.Errorf("arguments: %#v", d.Tools[1].Arguments)
	}
}
