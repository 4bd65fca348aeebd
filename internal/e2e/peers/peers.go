// Package peers locates the real MCP servers from npm that end-to-end tests
// drive. They are pinned in this folder's package-lock.json; the test command
// (scripts/test) installs them with `npm ci` when they are missing or stale.
package peers

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Version is the release of the three reference servers the lockfile pins.
const Version = "2026.8.31"

// Dir is the absolute path of the folder holding package.json.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// Require fails the test unless the npm peers and Node.js are installed, and
// returns the node binary.
func Require(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH: the end-to-end tests need Node.js (see README)")
	}
	if _, err := os.Stat(filepath.Join(Dir(), "node_modules", ".package-lock.json")); err != nil {
		t.Fatalf("npm peers are not installed: run scripts/test, or `npm ci` in %s", Dir())
	}
	return node
}

// Script returns the path of an installed package's file, for example
// Script("server-everything", "dist/index.js").
func Script(pkg, rel string) string {
	return filepath.Join(Dir(), "node_modules", "@modelcontextprotocol", pkg, rel)
}

// Everything returns the argv that runs server-everything over stdio.
func Everything(t testing.TB) []string {
	return []string{Require(t), Script("server-everything", "dist/index.js"), "stdio"}
}

// Filesystem returns the argv that runs server-filesystem over stdio with
// the given allowed directories.
func Filesystem(t testing.TB, dirs ...string) []string {
	return append([]string{Require(t), Script("server-filesystem", "dist/index.js")}, dirs...)
}

// Memory returns the argv and the environment entry that run server-memory
// over stdio with its graph in file, which must be an absolute path: the
// server resolves relative ones against its own dist folder.
func Memory(t testing.TB, file string) (argv []string, env string) {
	if !filepath.IsAbs(file) {
		t.Fatalf("server-memory needs an absolute MEMORY_FILE_PATH, got %q", file)
	}
	return []string{Require(t), Script("server-memory", "dist/index.js")}, "MEMORY_FILE_PATH=" + file
}
