package cli

import (
	"strings"
	"testing"
)

func TestServeRefusesAnAddressOffLoopback(t *testing.T) {
	code, _, stderr := runCLI(t, "serve", "--addr", "0.0.0.0:0", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "not a loopback address") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

func TestServeRefusesAFolderItCannotRead(t *testing.T) {
	code, _, stderr := runCLI(t, "serve", t.TempDir()+"/missing")
	if code != 2 || !strings.Contains(stderr, "cannot read the folder") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}
