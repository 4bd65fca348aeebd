package sign

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/sign/signtest"
)

// runDir writes a one-block ledger and its head, as check leaves them.
func runDir(t *testing.T) (led, head string) {
	t.Helper()
	dir := t.TempDir()
	led, head = filepath.Join(dir, "ledger.ndjson"), filepath.Join(dir, "ledger.head")
	var buf bytes.Buffer
	w := ledger.NewWriter(&buf)
	w.Append("provenance", map[string]string{"tool": "mcpverdict"})
	w.Flush()
	os.WriteFile(led, buf.Bytes(), 0o644)
	os.WriteFile(head, HeadFileBytes(w.Head()), 0o644)
	return led, head
}

func TestSignRunSignsWhenATokenCanBeHad(t *testing.T) {
	s := signtest.New(t)
	led, head := runDir(t)
	path, notice, err := SignRun(context.Background(), RunOptions{
		Mode: ModeAuto, Ledger: led, HeadFile: head, Version: "test", Getenv: s.Env,
		Sigstore: Options{FulcioURL: s.Fulcio.URL, RekorURL: s.Rekor.URL, TSAURL: s.TSA.URL},
	})
	if err != nil || notice != "" || path != head+".sigstore.json" {
		t.Fatalf("%q %q %v", path, notice, err)
	}
	bundle, _ := os.ReadFile(path)
	rootPath := filepath.Join(t.TempDir(), "root.json")
	os.WriteFile(rootPath, s.TrustedRoot(), 0o644)
	tr, _ := LoadTrustedRoot(rootPath)
	h, _ := ReadHeadFile(head)
	if v, err := Verify(bundle, VerifyOptions{Head: h, TrustedRoot: tr, Identity: signtest.Identity, Issuer: signtest.Issuer}); err != nil || v.Predicate.Blocks != 1 {
		t.Fatalf("%+v %v", v, err)
	}
}

func TestSignRunModes(t *testing.T) {
	led, head := runDir(t)
	none := func(string) string { return "" }
	if path, notice, err := SignRun(context.Background(), RunOptions{Mode: ModeAuto, Ledger: led, HeadFile: head, Getenv: none}); err != nil || path != "" || !strings.Contains(notice, "id-token: write") {
		t.Errorf("auto without a token: %q %q %v", path, notice, err)
	}
	if _, _, err := SignRun(context.Background(), RunOptions{Mode: ModeAlways, Ledger: led, HeadFile: head, Getenv: none}); err != ErrNoAmbientToken {
		t.Errorf("true without a token: %v", err)
	}
	if path, notice, err := SignRun(context.Background(), RunOptions{Mode: ModeNever}); path != "" || notice != "" || err != nil {
		t.Errorf("false: %q %q %v", path, notice, err)
	}
	if _, _, err := SignRun(context.Background(), RunOptions{Mode: "maybe"}); err == nil {
		t.Error("an unknown mode was accepted")
	}
	s := signtest.New(t)
	os.WriteFile(head, HeadFileBytes(testHead), 0o644)
	_, _, err := SignRun(context.Background(), RunOptions{Mode: ModeAlways, Ledger: led, HeadFile: head, Getenv: s.Env,
		Sigstore: Options{FulcioURL: s.Fulcio.URL, RekorURL: s.Rekor.URL, TSAURL: s.TSA.URL}})
	if err == nil || !strings.Contains(err.Error(), "does not reach") {
		t.Errorf("a head the ledger does not reach: %v", err)
	}
}
