package outfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNothingAppearsBeforeCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ledger.jsonl")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("half")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the output exists before Commit: %v", err)
	}
	f.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("Abort left %d files behind", len(entries))
	}
	if err := WriteFile(path, []byte("whole\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "whole\n" {
		t.Fatalf("got %q", b)
	}
}

func TestUnwritableDirectoryIsAnError(t *testing.T) {
	if err := WriteFile(filepath.Join(t.TempDir(), "missing", "x"), nil); err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
}
