package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// corpus/bare is what genbare writes from the rest of the corpus: a change
// to a trace there is a change to its bare twin.
func TestBareCorpusIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..", "..", "corpus")
	want, err := Bare(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("genbare wrote no bare trace")
	}
	have, err := filepath.Glob(filepath.Join(root, "bare", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range have {
		if _, ok := want[filepath.Base(p)]; !ok {
			t.Errorf("%s is not written by genbare any more: run %s", p, regenerate)
		}
	}
	for name, body := range want {
		got, err := os.ReadFile(filepath.Join(root, "bare", name))
		if err != nil || !bytes.Equal(got, body) {
			t.Errorf("corpus/bare/%s is stale: run %s", name, regenerate)
		}
	}
}

// A bare event keeps every member's bytes but the ones the core format
// lacks.
func TestBareEventDropsRecorderMembers(t *testing.T) {
	in := `{"seq":1,"kind":"http","transport":"streamable-http","method":"POST","path":"/mcp","exchange":2,"stream":"post:2","headers":{"a":"b"}}`
	got, http, err := bareEvent([]byte(in))
	if err != nil || !http {
		t.Fatalf("bareEvent: %v, http %v", err, http)
	}
	if want := `{"seq":1,"kind":"http","transport":"streamable-http","headers":{"a":"b"}}`; string(got) != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	get := `{"kind":"http","transport":"streamable-http","method":"GET"}`
	if got, _, _ := bareEvent([]byte(get)); string(got) != get {
		t.Errorf("a GET lost its method: %s", got)
	}
}
