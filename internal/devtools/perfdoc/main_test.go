package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A section is written between its markers; a second run replaces it and
// leaves the other sections alone.
func TestSpliceKeepsOtherSections(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "performance.md")
	metrics := filepath.Join(dir, "m.jsonl")
	write := func(text string) {
		if err := os.WriteFile(metrics, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"name":"a (s)","value":120.4}` + "\n" + `{"name":"b (s)","value":4}` + "\n")
	if err := run("image", "Image", "", metrics, []string{"a (s)/b (s)=a ÷ b"}, doc); err != nil {
		t.Fatal(err)
	}
	if err := run("judge", "Judge", "", metrics, nil, doc); err != nil {
		t.Fatal(err)
	}
	write(`{"name":"a (s)","value":60}` + "\n" + `{"name":"b (s)","value":6}` + "\n")
	if err := run("image", "Image", "", metrics, []string{"a (s)/b (s)=a ÷ b"}, doc); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(doc)
	text := string(data)
	for _, want := range []string{"| a ÷ b | 10.0× |", "## Judge", "| a (s) | 120 |"} {
		if !strings.Contains(text, want) {
			t.Errorf("the document lacks %q:\n%s", want, text)
		}
	}
	if strings.Count(text, "## Image") != 1 || strings.Contains(text, "30.1×") {
		t.Errorf("the image section was not replaced:\n%s", text)
	}
}

func TestBadMetricsNameTheLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.jsonl")
	os.WriteFile(path, []byte(`{"name":"a","value":1}`+"\nnot json\n"), 0o644)
	if _, _, err := readMetrics(path); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("err %v, want one naming line 2", err)
	}
}
