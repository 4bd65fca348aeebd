package sign

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/sign/signtest"
)

const testHead = "sha256:3f1d5c0a8b7e6d5c4b3a29180716f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4"

// signed signs testHead against the stand-ins, as a GitHub Actions job
// would, and returns the bundle and the trusted root's path.
func signed(t *testing.T, s *signtest.Sigstore) ([]byte, string) {
	t.Helper()
	ctx := context.Background()
	token, err := GitHubToken(ctx, http.DefaultClient, s.Env)
	if err != nil {
		t.Fatal(err)
	}
	bundle, err := Sign(ctx, Options{
		Predicate: Predicate{Head: testHead, Ledger: "ledger.ndjson", Blocks: 6, Format: "mcpverdict-ledger 1", Signer: "test"},
		IDToken:   token, FulcioURL: s.Fulcio.URL, RekorURL: s.Rekor.URL, TSAURL: s.TSA.URL + "/api/v1/timestamp",
	})
	if err != nil {
		t.Fatal(err)
	}
	rootPath := filepath.Join(t.TempDir(), "trusted_root.json")
	if err := os.WriteFile(rootPath, s.TrustedRoot(), 0o644); err != nil {
		t.Fatal(err)
	}
	return bundle, rootPath
}

func verifyWith(t *testing.T, bundle []byte, rootPath string, edit func(*VerifyOptions)) (*Verified, error) {
	t.Helper()
	tr, err := LoadTrustedRoot(rootPath)
	if err != nil {
		t.Fatal(err)
	}
	opts := VerifyOptions{Head: testHead, TrustedRoot: tr, Identity: signtest.Identity, Issuer: signtest.Issuer}
	if edit != nil {
		edit(&opts)
	}
	return Verify(bundle, opts)
}

func TestSignAndVerifyAgainstStandIns(t *testing.T) {
	s := signtest.New(t)
	bundle, rootPath := signed(t, s)
	v, err := verifyWith(t, bundle, rootPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Identity != signtest.Identity || v.Issuer != signtest.Issuer || v.Predicate.Head != testHead || v.Timestamps < 2 {
		t.Errorf("verified %+v", v)
	}
	var b struct {
		MediaType string `json:"mediaType"`
	}
	json.Unmarshal(bundle, &b)
	if b.MediaType != "application/vnd.dev.sigstore.bundle.v0.3+json" {
		t.Errorf("media type %q", b.MediaType)
	}
	if _, err := verifyWith(t, bundle, rootPath, func(o *VerifyOptions) {
		o.Identity, o.IdentityRegexp = "", `^https://github\.com/mcpverdict/demo/`
		o.Issuer = ""
		o.IssuerRegexp = `^https://token\.actions\.githubusercontent\.com$`
	}); err != nil {
		t.Errorf("regexp identity: %v", err)
	}
}

func TestVerifyRefuses(t *testing.T) {
	s := signtest.New(t)
	bundle, rootPath := signed(t, s)
	other := signtest.New(t)
	otherRoot := filepath.Join(t.TempDir(), "other.json")
	os.WriteFile(otherRoot, other.TrustedRoot(), 0o644)
	edited := editEnvelope(t, bundle, func(env map[string]any) {
		payload, _ := base64.StdEncoding.DecodeString(env["payload"].(string))
		env["payload"] = base64.StdEncoding.EncodeToString(bytes.Replace(payload, []byte(`"blocks":6`), []byte(`"blocks":5`), 1))
	})
	badSig := editEnvelope(t, bundle, func(env map[string]any) {
		sigs := env["signatures"].([]any)
		sig, _ := base64.StdEncoding.DecodeString(sigs[0].(map[string]any)["sig"].(string))
		sig[len(sig)-1] ^= 1
		sigs[0].(map[string]any)["sig"] = base64.StdEncoding.EncodeToString(sig)
	})
	cases := map[string]struct {
		bundle []byte
		root   string
		edit   func(*VerifyOptions)
		want   string
	}{
		"wrong identity": {bundle, rootPath, func(o *VerifyOptions) {
			o.Identity = "https://github.com/someone/else/.github/workflows/ci.yml@refs/heads/main"
		}, "identity"},
		"wrong identity regexp": {bundle, rootPath, func(o *VerifyOptions) { o.Identity, o.IdentityRegexp = "", "^https://github.com/other/" }, "identity"},
		"wrong issuer":          {bundle, rootPath, func(o *VerifyOptions) { o.Issuer = "https://accounts.google.com" }, "issuer"},
		"different head":        {bundle, rootPath, func(o *VerifyOptions) { o.Head = strings.Replace(testHead, "3f1d", "3f1e", 1) }, "digest"},
		"edited statement":      {edited, rootPath, nil, "could not verify"},
		"edited signature":      {badSig, rootPath, nil, "could not verify"},
		"untrusted root":        {bundle, otherRoot, nil, "could not verify"},
		"not a bundle":          {[]byte(`{"mediaType":"x"}`), rootPath, nil, "not a Sigstore bundle"},
	}
	for name, tc := range cases {
		_, err := verifyWith(t, tc.bundle, tc.root, tc.edit)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (want an error mentioning %q)", name, err, tc.want)
		}
	}
}

// editEnvelope returns bundle with its DSSE envelope changed by edit.
func editEnvelope(t *testing.T, bundle []byte, edit func(map[string]any)) []byte {
	t.Helper()
	var b map[string]any
	if err := json.Unmarshal(bundle, &b); err != nil {
		t.Fatal(err)
	}
	edit(b["dsseEnvelope"].(map[string]any))
	out, _ := json.Marshal(b)
	return out
}

func TestNoAmbientTokenOutsideActions(t *testing.T) {
	_, err := GitHubToken(context.Background(), http.DefaultClient, func(string) string { return "" })
	if err != ErrNoAmbientToken {
		t.Fatalf("%v", err)
	}
	if _, err := Sign(context.Background(), Options{Predicate: Predicate{Head: testHead}}); err != ErrNoAmbientToken {
		t.Fatalf("%v", err)
	}
	if _, err := Statement(Predicate{Head: "sha256:xyz"}); err == nil {
		t.Fatal("a malformed head was signed")
	}
}

func FuzzVerifyBundle(f *testing.F) {
	f.Add([]byte(`{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		// Bundles are parsed by sigstore-go; what this holds is that no
		// input panics or verifies without a trusted root that signed it.
		if _, err := Verify(in, VerifyOptions{Head: testHead, TrustedRoot: emptyRoot, Identity: "x", Issuer: "y"}); err == nil {
			t.Fatal("verified with an empty trusted root")
		}
	})
}
