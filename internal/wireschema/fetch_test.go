package wireschema

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stand-in for raw.githubusercontent.com serving the spec checkout: the
// real client path downloads, checks the pins and writes the cache.
func TestFetchChecksPinsAndWrites(t *testing.T) {
	spec := schemaDir(t)
	prefix := "/modelcontextprotocol/modelcontextprotocol/" + SpecCommit
	srv := httptest.NewServer(http.StripPrefix(prefix+"/schema", http.FileServer(http.Dir(spec))))
	defer srv.Close()
	dir := t.TempDir()
	paths, err := Fetch(context.Background(), srv.Client(), srv.URL+prefix, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(Pins) {
		t.Fatalf("wrote %v", paths)
	}
	// The image's non-root judge user reads what the build's root fetched.
	for _, p := range paths {
		if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v, mode %v; want 0644", p, err, info.Mode().Perm())
		}
	}
	if _, err := Load(filepath.Join(dir, "2025-11-25", "schema.json"), "2025-11-25"); err != nil {
		t.Error(err)
	}
}

func TestFetchRefusesATamperedSchema(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"$defs":{}}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	_, err := Fetch(context.Background(), srv.Client(), srv.URL, dir)
	if err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("err = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused schema left files behind: %v", entries)
	}
}

func TestFetchReportsHTTPErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	_, err := Fetch(context.Background(), srv.Client(), srv.URL, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("err = %v", err)
	}
}
