package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func foreignLedger(t *testing.T, name string) (path, head string) {
	t.Helper()
	path = filepath.Join("..", "ledger", "testdata", name)
	b, err := os.ReadFile(path + ".head")
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.TrimSpace(string(b))
}

func TestLedgerVerifyExitStatuses(t *testing.T) {
	path, head := foreignLedger(t, "mev-0.3.json")
	other := "sha256:" + strings.Repeat("0", 63) + "1"
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"intact", []string{"ledger", "verify", "--ledger", path, "--expected-head", head}, 0, "ledger intact: 3 blocks"},
		{"other head", []string{"ledger", "verify", "--ledger", path, "--expected-head", other}, 1, "head mismatch"},
		{"no head", []string{"ledger", "verify", "--ledger", path}, 2, "--expected-head is required"},
		{"bad head", []string{"ledger", "verify", "--ledger", path, "--expected-head", "abc"}, 2, "is not a head"},
		{"missing file", []string{"ledger", "verify", "--ledger", path + ".missing", "--expected-head", head}, 2, "cannot read the ledger"},
	}
	for _, tc := range cases {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("%s: exit %d, want %d; output %q lacks %q", tc.name, code, tc.code, stdout+stderr, tc.want)
		}
	}
}
