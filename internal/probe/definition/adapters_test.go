package definition

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// snapshotOf seeds the definition's adapters into a fresh state
// directory, lets change alter it, and returns the snapshots before and
// after.
func snapshotOf(t *testing.T, def *Definition, change func(dir string)) (Snapshot, Snapshot) {
	t.Helper()
	dir := t.TempDir()
	if err := def.SeedAll(dir); err != nil {
		t.Fatal(err)
	}
	before, err := def.ObserveAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	change(dir)
	after, err := def.ObserveAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	return before, after
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSQLiteRecordsAreTyped(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "seed.sql"), `CREATE TABLE t (k INTEGER PRIMARY KEY, v);
INSERT INTO t VALUES (1, 1), (2, 1.0), (3, '1'), (4, x'01'), (5, NULL);`)
	def := &Definition{Dir: src, Adapters: []Adapter{{Kind: "sqlite", Path: "db", Seed: "seed.sql", Business: []string{"t"}}}}
	snap, _ := snapshotOf(t, def, func(string) {})
	var got []string
	for _, r := range snap["db:t"].Records {
		got = append(got, r.Key+"="+r.Value)
	}
	want := `1={"k":1,"v":1} 2={"k":2,"v":{"real":"1.0"}} 3={"k":3,"v":"1"} 4={"k":4,"v":{"blob":"01"}} 5={"k":5,"v":null}`
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	if snap["db:t"].Category != Business || snap["db:"+SchemaRegion] == nil {
		t.Errorf("regions: %v", SortedKeys(snap))
	}
}

func TestFSSeesContentModesAndLinksButNotTimes(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "seed", "a.txt"), "alpha")
	if err := os.Symlink("a.txt", filepath.Join(src, "seed", "link")); err != nil {
		t.Fatal(err)
	}
	def := &Definition{Dir: src, Adapters: []Adapter{{Kind: "fs", Path: "docs", Seed: "seed", Business: []string{"**"}}}}
	check := func(name string, change func(docs string), want ChangeKind) {
		before, after := snapshotOf(t, def, func(dir string) { change(filepath.Join(dir, "docs")) })
		d := DiffSnapshots(before, after)
		if want == "" {
			if len(d.Changes) != 0 {
				t.Errorf("%s: changes %+v", name, d.Changes)
			}
			return
		}
		if len(d.Changes) != 1 || d.Changes[0].Kind != want {
			t.Errorf("%s: got %+v, want one %s", name, d.Changes, want)
		}
	}
	check("mtime", func(docs string) {
		future := time.Now().Add(time.Hour)
		_ = os.Chtimes(filepath.Join(docs, "a.txt"), future, future)
	}, "")
	check("mode", func(docs string) { _ = os.Chmod(filepath.Join(docs, "a.txt"), 0o600) }, Overwritten)
	check("content", func(docs string) { _ = os.WriteFile(filepath.Join(docs, "a.txt"), []byte("ALPHA"), 0o644) }, Overwritten)
	check("link", func(docs string) {
		_ = os.Remove(filepath.Join(docs, "link"))
		_ = os.Symlink("elsewhere", filepath.Join(docs, "link"))
	}, Overwritten)
	check("new file", func(docs string) { _ = os.WriteFile(filepath.Join(docs, "b.txt"), nil, 0o644) }, Added)
}

func TestJSONRecordsAndTheRestOfTheDocument(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "store.json"), `{"version": 1, "items": {"a": {"n": 1}, "b": {"n": 2}}}`)
	def := &Definition{Dir: src, Adapters: []Adapter{{Kind: "json", Path: "store.json", Seed: "store.json", Records: "items", Business: []string{"records"}}}}
	before, after := snapshotOf(t, def, func(dir string) {
		writeFile(t, filepath.Join(dir, "store.json"), `{"version": 2, "items": {"a": {"n": 1, "m": 3}}}`)
	})
	kinds := map[string]ChangeKind{}
	for _, ch := range DiffSnapshots(before, after).Changes {
		kinds[ch.Region+" "+ch.Key] = ch.Kind
	}
	want := map[string]ChangeKind{
		"store.json:records a": Extended, "store.json:records b": Removed,
		"store.json:(document) document": Overwritten,
	}
	for k, v := range want {
		if kinds[k] != v {
			t.Errorf("%s: got %q, want %q (all: %v)", k, kinds[k], v, kinds)
		}
	}
}

func TestJSONLinesRegionsKeysAndUnparsableLines(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "m.jsonl"), `{"type":"entity","name":"ada","obs":["x"]}
{"type":"relation","from":"ada","to":"bob"}
`)
	def := &Definition{Dir: src, Adapters: []Adapter{{Kind: "jsonl", Path: "m.jsonl", Seed: "m.jsonl", Region: "type", Key: []string{"name"}, Business: []string{"entity", "relation"}}}}
	before, after := snapshotOf(t, def, func(dir string) {
		writeFile(t, filepath.Join(dir, "m.jsonl"), `{"type":"entity","name":"ada","obs":["x","y"]}
not json
`)
	})
	kinds := map[string]ChangeKind{}
	for _, ch := range DiffSnapshots(before, after).Changes {
		kinds[ch.Region] = ch.Kind
	}
	want := map[string]ChangeKind{"m.jsonl:entity": Extended, "m.jsonl:relation": Removed, "m.jsonl:(unparsable)": Added}
	for k, v := range want {
		if kinds[k] != v {
			t.Errorf("%s: got %q, want %q (all: %v)", k, kinds[k], v, kinds)
		}
	}
}

func TestMasksHideVolatileValuesOnly(t *testing.T) {
	v := map[string]any{"at": "2026-01-01T00:00:00Z", "id": "9b2f6c1e-4d3a-4f5b-8c7d-0e1f2a3b4c5d", "n": "kept"}
	v2 := applyMask(applyMask(v, Mask{Field: "at", Kind: "timestamp"}), Mask{Field: "id", Kind: "uuid"})
	if Canonical(v2) != `{"at":"<timestamp>","id":"<uuid>","n":"kept"}` {
		t.Errorf("masked: %s", Canonical(v2))
	}
	if Canonical(v) == Canonical(v2) {
		t.Error("the mask changed the original record")
	}
	for kind, ok := range map[string]bool{"timestamp": isTimestamp("2026-01-01 10:00:00"), "uuid": !isUUID("not-a-uuid"), "counter": isCounter("42")} {
		if !ok {
			t.Errorf("%s kind misjudged", kind)
		}
	}
}

func TestFilesOutsideTheAdaptersAreObservedToo(t *testing.T) {
	def := &Definition{Dir: t.TempDir(), Adapters: []Adapter{{Kind: "jsonl", Path: "data.jsonl"}}}
	before, after := snapshotOf(t, def, func(dir string) { writeFile(t, filepath.Join(dir, "cache", "x.bin"), "x") })
	d := DiffSnapshots(before, after)
	if len(d.Changes) != 2 || d.Changes[0].Region != restRegion || d.Changes[0].Category != Unclassified {
		t.Errorf("got %+v", d.Changes)
	}
}
