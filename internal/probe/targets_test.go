package probe_test

import (
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/probe"
)

// The target definitions load strictly and reset reproducibly, and record
// no expected verdicts: their reports are measurements. Running them needs
// the npm peers and minutes (see the README).
func TestTargetDefinitionsLoadAndReset(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "corpus", "probe", "targets", "*", "probe.toml"))
	if len(paths) < 2 {
		t.Fatalf("found %d target definitions, want server-memory and server-filesystem", len(paths))
	}
	for _, p := range paths {
		def, err := probe.Load(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, tc := range def.Tools {
			if tc.Expected != nil {
				t.Errorf("%s: %s records expected verdicts; a target is measured, not held to a truth", p, tc.ID())
			}
		}
		check, err := probe.VerifyReset(def)
		if err != nil || !check.Verified {
			t.Errorf("%s: reset %+v, %v", p, check, err)
		}
	}
}
