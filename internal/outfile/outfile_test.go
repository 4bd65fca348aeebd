package outfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNothingAppearsBeforeCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ledger.ndjson")
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

// A later workflow step may run as another user: what is written is
// readable by all, and WriteFileAll makes the directory it needs.
func TestFilesAreReadableByEveryUser(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "report.json")
	if err := WriteFileAll(path, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, filepath.Dir(path)} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if want := os.FileMode(0o644); info.IsDir() {
			want = 0o755
			if info.Mode().Perm()&want != want {
				t.Errorf("%s is %v, want %v", p, info.Mode().Perm(), want)
			}
		} else if info.Mode().Perm() != want {
			t.Errorf("%s is %v, want %v", p, info.Mode().Perm(), want)
		}
	}
}
