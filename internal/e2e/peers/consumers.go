package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// SarifMultitool returns the SARIF Multitool binary, made executable: npm
// here blocks the package's install script that would do it, and the .bin
// wrapper passes arguments through a shell, so tests call it directly.
func SarifMultitool(t testing.TB) string {
	t.Helper()
	Require(t)
	bin := filepath.Join(Dir(), "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	info, err := os.Stat(bin)
	if err != nil {
		t.Fatalf("sarif-multitool is not installed: run scripts/peers (%v)", err)
	}
	if info.Mode()&0o100 == 0 {
		if err := os.Chmod(bin, info.Mode()|0o100); err != nil {
			t.Fatalf("making %s executable: %v", bin, err)
		}
	}
	return bin
}

// Module returns the path of an installed npm package's file, for example
// Module("test-results-parser", "src/index.js").
func Module(pkg, rel string) string {
	return filepath.Join(Dir(), "node_modules", filepath.FromSlash(pkg), filepath.FromSlash(rel))
}
