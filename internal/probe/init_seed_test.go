package probe

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
)

const serverMemorySeed = "../../corpus/probe/targets/server-memory/memory.ndjson"

// The case: identified by their whole value, server-memory's
// entities read as removed when add_observations appends to them. The
// seed shows what the committed target definition says: regions by
// "type", entities by "name", relations (no name) by their whole value.
func TestInitReadsServerMemorysIdentityFromItsSeed(t *testing.T) {
	p, err := planSeed(serverMemorySeed, "probe.toml")
	if err != nil {
		t.Fatal(err)
	}
	if p.kind != "jsonl" || p.region != "type" || !slices.Equal(p.key, []string{"name"}) || p.keyTODO != "" {
		t.Errorf("kind %q region %q key %q todo %q, want jsonl, type, [name]", p.kind, p.region, p.key, p.keyTODO)
	}
	if !slices.Equal(p.regions, []string{"entity", "relation"}) {
		t.Errorf("regions %v", p.regions)
	}
	if len(p.identity) != 2 || !strings.Contains(p.identity[1], "relation: by its whole value") {
		t.Errorf("identity %q", p.identity)
	}
}

func writeSeed(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestInitChoosesAKeyOnlyWhereTheSeedShowsOne(t *testing.T) {
	cases := []struct {
		name, seed string
		key        []string
		todo       string
	}{
		{"named key preferred", `{"name":"a","id":2}` + "\n" + `{"name":"b","id":1}`, []string{"id"}, ""},
		{"named key in any case", `{"ID":"a","x":1}` + "\n" + `{"ID":"b","x":2}`, []string{"ID"}, ""},
		{"no named key: the first unique field", `{"title":"a","sku":"1","n":1}` + "\n" + `{"title":"b","sku":"2","n":1}`, []string{"sku"}, ""},
		{"a field some record lacks", `{"sku":"1"}` + "\n" + `{"text":"x"}`, nil, "no field is present and unique in every record"},
		{"a field two records share", `{"name":"a"}` + "\n" + `{"name":"a"}`, nil, "no field is present and unique in every record"},
		{"objects do not identify", `{"id":{"a":1}}` + "\n" + `{"id":{"a":2}}`, nil, "no field is present and unique"},
		{"one record", `{"title":"welcome","body":"first"}`, nil, "one record per region, too few"},
		{"one record with a named key", `{"title":"welcome","name":"w"}`, []string{"name"}, ""},
		{"no record", "", nil, "holds no record"},
	}
	for _, c := range cases {
		p, err := planSeed(writeSeed(t, "s.jsonl", c.seed), "probe.toml")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(p.key, c.key) || (c.todo == "") != (p.keyTODO == "") || !strings.Contains(p.keyTODO, c.todo) {
			t.Errorf("%s: key %q todo %q, want %q %q", c.name, p.key, p.keyTODO, c.key, c.todo)
		}
	}
}

// Only a field named for what a record is becomes the region: a record
// whose region changes reads as removed, so a status is only proposed.
func TestInitWritesARegionOnlyForATypeField(t *testing.T) {
	seed := `{"id":1,"kind":"a","status":"open"}` + "\n" + `{"id":2,"kind":"a","status":"done"}` + "\n" +
		`{"id":3,"kind":"b","status":"open"}` + "\n" + `{"id":4,"kind":"b","status":"done"}`
	p, err := planSeed(writeSeed(t, "s.ndjson", seed), "probe.toml")
	if err != nil || p.region != "kind" || !slices.Equal(p.key, []string{"id"}) {
		t.Errorf("region %q key %q (%v), want kind and [id]", p.region, p.key, err)
	}
	p, err = planSeed(writeSeed(t, "s.ndjson", strings.ReplaceAll(seed, `"kind":`, `"group":`)), "probe.toml")
	if err != nil || p.region != "" || p.regionAlt != "group" || !slices.Equal(p.regions, []string{"records"}) {
		t.Errorf("region %q, proposed %q, regions %v (%v): want none written, group proposed", p.region, p.regionAlt, p.regions, err)
	}
}

func TestInitFindsAJSONDocumentsRecords(t *testing.T) {
	p, err := planSeed("../../corpus/probe/fixtures/destructive-delete/store.json", "probe.toml")
	if err != nil || p.kind != "json" || p.records != "items" || !p.named || len(p.key) != 0 || p.keyTODO != "" {
		t.Errorf("store.json: %+v %v, want records items identified by member name", p, err)
	}
	p, err = planSeed(writeSeed(t, "d.json", `{"version":1,"users":[{"id":"u1"},{"id":"u2"}]}`), "probe.toml")
	if err != nil || p.records != "users" || p.named || !slices.Equal(p.key, []string{"id"}) || !slices.Equal(p.regions, []string{definition.DocumentRegion, "records"}) {
		t.Errorf("users: %+v %v", p, err)
	}
	p, err = planSeed(writeSeed(t, "d.json", `{"users":[],"orders":[]}`), "probe.toml")
	if err != nil || !strings.Contains(p.recordsTODO, "orders, users") || p.keyTODO == "" {
		t.Errorf("two containers: %+v %v, want records and key left to the user", p, err)
	}
}

func TestInitInfersTheKindAndNamesTheSeedFromTheDefinition(t *testing.T) {
	dir := t.TempDir()
	for name, want := range map[string]string{"a.jsonl": "jsonl", "a.NDJSON": "jsonl", "a.json": "json", "a.txt": ""} {
		body := "{}"
		if want == "jsonl" {
			body = `{"id":1}`
		}
		seed := filepath.Join(dir, "seeds", name)
		if err := os.MkdirAll(filepath.Dir(seed), 0o755); err != nil || os.WriteFile(seed, []byte(body), 0o644) != nil {
			t.Fatal(err)
		}
		p, err := planSeed(seed, filepath.Join(dir, "defs", "probe.toml"))
		if err != nil || p.kind != want || p.seed != "../seeds/"+name {
			t.Errorf("%s: kind %q seed %q (%v), want %q ../seeds/%s", name, p.kind, p.seed, err, want, name)
		}
	}
	p, err := planSeed("../../corpus/probe/fixtures/honest-upsert/seed.sql", "probe.toml")
	if err != nil || p.kind != "sqlite" || !slices.Equal(p.regions, []string{"kv"}) {
		t.Errorf("seed.sql: %+v %v", p, err)
	}
	p, err = planSeed("../../corpus/probe/fixtures/fs-store/seed/docs", "probe.toml")
	if err != nil || p.kind != "fs" || !slices.Contains(p.regions, "sub/") {
		t.Errorf("docs: %+v %v", p, err)
	}
	if _, err := planSeed(filepath.Join(dir, "missing.jsonl"), "probe.toml"); err == nil {
		t.Error("a missing seed was accepted")
	}
}

// A sqlite seed is executed as SQL, so a database file cannot be one; init
// says how to make the script instead of writing a seed that fails.
func TestInitRefusesADatabaseFileAsASeed(t *testing.T) {
	dir := t.TempDir()
	a := &definition.SqliteAdapter{Path: "app.db", Seed: writeSeed(t, "seed.sql", "CREATE TABLE notes (id INTEGER PRIMARY KEY);")}
	if err := a.SeedInto(dir); err != nil {
		t.Fatal(err)
	}
	p, err := planSeed(filepath.Join(dir, "app.db"), "probe.toml")
	if err != nil || p.kind != "sqlite" || !strings.Contains(p.seedTODO, "sqlite3 app.db .dump") || !slices.Equal(p.regions, []string{"notes"}) {
		t.Errorf("%+v %v", p, err)
	}
}

// What init writes from a seed refuses to load until its placeholders are
// replaced, and then loads: the kind, seed, region and key it wrote are
// valid as they are.
func TestInitSkeletonFromASeedLoadsOnceFilledIn(t *testing.T) {
	dir := t.TempDir()
	def := filepath.Join(dir, "probe.toml")
	plan, err := planSeed(serverMemorySeed, def)
	if err != nil {
		t.Fatal(err)
	}
	text := string(skeleton([]string{"server"}, plan, []initTool{{contract: definition.Contract{Tool: "add_observations"}}}))
	for _, want := range []string{"kind = \"jsonl\"\n", "region = \"type\"\n", "key = [\"name\"]\n", "the seed has entity, relation"} {
		if !strings.Contains(text, want) {
			t.Errorf("the skeleton lacks %q:\n%s", want, text)
		}
	}
	if err := os.WriteFile(def, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := definition.Load(def); err == nil || !strings.Contains(err.Error(), "adapters[0].business") {
		t.Errorf("the unfilled skeleton: %v, want a refusal naming the business placeholder", err)
	}
	var filled []string
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "path = "):
			line = `path = "memory.jsonl"`
		case strings.HasPrefix(line, "business = "):
			line = `business = ["entity", "relation"]`
		}
		filled = append(filled, line)
	}
	if err := os.WriteFile(def, []byte(strings.Join(filled, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := definition.Load(def)
	if err != nil {
		t.Fatal(err)
	}
	if a := loaded.Adapters[0]; a.Region != "type" || !slices.Equal(a.Key, []string{"name"}) {
		t.Errorf("loaded %+v", a)
	}
}

func TestInitWithoutASeedWritesEveryAdapterFieldAsAPlaceholder(t *testing.T) {
	var b strings.Builder
	writeAdapter(&b, nil)
	want := "# One adapter per place the server keeps state; see docs/probe.md.\n[[adapters]]\n" +
		`kind = "TODO(mcpverdict): sqlite | fs | json | jsonl"` + "\n" +
		`path = "TODO(mcpverdict): the database, file or folder, relative to {state}"` + "\n" +
		`seed = "TODO(mcpverdict): what to reset it from, relative to this file"` + "\n" +
		`business = ["TODO(mcpverdict): regions holding business records"]` + "\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
