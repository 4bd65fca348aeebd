package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/sign/signtest"
)

func TestLedgerSignThenVerifyTheBundle(t *testing.T) {
	s := signtest.New(t)
	dir := t.TempDir()
	declared, observed := evidencePair()
	led, head := filepath.Join(dir, "ledger.ndjson"), filepath.Join(dir, "ledger.head")
	if code, _, stderr := runCLI(t, "evidence", "validate", "--declared", declared, "--observed", observed, "--out", led, "--head-out", head); code != 0 {
		t.Fatal(stderr)
	}
	var out, errb bytes.Buffer
	cmd := Command{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: s.Env}
	code := cmd.Main([]string{"ledger", "sign", "--head", head, "--ledger", led,
		"--fulcio-url", s.Fulcio.URL, "--rekor-url", s.Rekor.URL, "--tsa-url", s.TSA.URL + "/api/v1/timestamp"})
	if code != 0 {
		t.Fatalf("sign: exit %d: %s", code, errb.String())
	}
	bundle := head + ".sigstore.json"
	root := filepath.Join(dir, "trusted_root.json")
	os.WriteFile(root, s.TrustedRoot(), 0o644)
	verify := func(extra ...string) (int, string) {
		args := append([]string{"ledger", "verify", "--ledger", led, "--expected-head", head, "--bundle", bundle, "--trusted-root", root}, extra...)
		code, stdout, stderr := runCLI(t, args...)
		return code, stdout + stderr
	}
	if code, out := verify("--certificate-identity", signtest.Identity, "--certificate-oidc-issuer", signtest.Issuer); code != 0 || !strings.Contains(out, "signature verified: "+signtest.Identity) {
		t.Fatalf("verify: exit %d: %s", code, out)
	}
	if code, out := verify("--certificate-identity", "https://github.com/evil/repo/.github/workflows/x.yml@refs/heads/main", "--certificate-oidc-issuer", signtest.Issuer); code != 1 || !strings.Contains(out, "refused") {
		t.Errorf("wrong identity: exit %d: %s", code, out)
	}
	if code, out := verify("--certificate-identity", signtest.Identity); code != 2 || !strings.Contains(out, "--certificate-oidc-issuer") {
		t.Errorf("no issuer: exit %d: %s", code, out)
	}
	code, _, stderr := runCLI(t, "ledger", "sign", "--head", head)
	if code != 2 || !strings.Contains(stderr, "--identity-token") {
		t.Errorf("no token outside Actions: exit %d: %s", code, stderr)
	}
}
