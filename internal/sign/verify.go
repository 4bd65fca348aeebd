package sign

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
)

// VerifyOptions say what a bundle must prove.
type VerifyOptions struct {
	// Head is the ledger head the signature must be over.
	Head string
	// TrustedRoot holds the Fulcio, Rekor, timestamp and CT keys to trust.
	TrustedRoot root.TrustedMaterial
	// Identity or IdentityRegexp must match the certificate's subject (on
	// GitHub Actions, the workflow: https://github.com/OWNER/REPO/.github/
	// workflows/FILE@REF); one of them is required.
	Identity, IdentityRegexp string
	// Issuer or IssuerRegexp must match the OIDC issuer the certificate
	// names (GitHub Actions: https://token.actions.githubusercontent.com);
	// one of them is required.
	Issuer, IssuerRegexp string
}

// Verified is what a verified bundle proved.
type Verified struct {
	// Identity and Issuer are the signer's, from the certificate.
	Identity, Issuer string
	// Predicate is the statement's predicate.
	Predicate Predicate
	// Timestamps counts the verified timestamps (Rekor, TSA).
	Timestamps int
}

// Bundle is a parsed Sigstore bundle, not yet verified.
type Bundle struct{ b bundle.Bundle }

// ParseBundle reads a bundle's JSON; it needs no trusted root and no
// network, so bytes that are no bundle are refused before either.
func ParseBundle(bundleJSON []byte) (*Bundle, error) {
	var b Bundle
	if err := b.b.UnmarshalJSON(bundleJSON); err != nil {
		return nil, fmt.Errorf("not a Sigstore bundle: %w", err)
	}
	return &b, nil
}

// Verify parses and verifies a bundle (see Bundle.Verify).
func Verify(bundleJSON []byte, opts VerifyOptions) (*Verified, error) {
	b, err := ParseBundle(bundleJSON)
	if err != nil {
		return nil, err
	}
	return b.Verify(opts)
}

// Verify checks the bundle: the signature, the certificate chain to the
// trusted Fulcio, the transparency log entry, a trusted time, the signer's
// identity and issuer, the predicate type, and that a subject is the head.
func (bb *Bundle) Verify(opts VerifyOptions) (*Verified, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	b := &bb.b
	verifier, err := verify.NewVerifier(opts.TrustedRoot, verifierOptions(opts.TrustedRoot)...)
	if err != nil {
		return nil, fmt.Errorf("could not set up verification: %w", err)
	}
	identity, err := verify.NewShortCertificateIdentity(opts.Issuer, opts.IssuerRegexp, opts.Identity, opts.IdentityRegexp)
	if err != nil {
		return nil, fmt.Errorf("bad identity: %w", err)
	}
	digest, _ := hex.DecodeString(strings.TrimPrefix(opts.Head, "sha256:"))
	res, err := verifier.Verify(b, verify.NewPolicy(verify.WithArtifactDigest("sha256", digest), verify.WithCertificateIdentity(identity)))
	if err != nil {
		return nil, fmt.Errorf("could not verify the bundle: %w", err)
	}
	return summarize(res, opts.Head)
}

func (o *VerifyOptions) check() error {
	if !headPattern.MatchString(o.Head) {
		return fmt.Errorf("%q is not a ledger head", o.Head)
	}
	if o.Identity == "" && o.IdentityRegexp == "" {
		return errors.New("a certificate identity (or identity regexp) is required: the signer to trust")
	}
	if o.Issuer == "" && o.IssuerRegexp == "" {
		return errors.New("a certificate OIDC issuer (or issuer regexp) is required")
	}
	if o.TrustedRoot == nil {
		return errors.New("no trusted root")
	}
	return nil
}

// verifierOptions asks for one transparency log entry, one trusted time,
// and, when the trusted root names certificate transparency logs (public
// good does), one signed certificate timestamp.
func verifierOptions(tm root.TrustedMaterial) []verify.VerifierOption {
	opts := []verify.VerifierOption{verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1)}
	if len(tm.CTLogs()) > 0 {
		opts = append(opts, verify.WithSignedCertificateTimestamps(1))
	}
	return opts
}

// summarize checks what sigstore-go leaves to the caller: the predicate
// type, and that the head is a subject by name as well as by digest.
func summarize(res *verify.VerificationResult, head string) (*Verified, error) {
	st := res.Statement
	if st == nil || st.GetPredicateType() != PredicateType {
		return nil, fmt.Errorf("the bundle's statement is not a ledger-head attestation (predicate type %q)", st.GetPredicateType())
	}
	found := false
	for _, s := range st.GetSubject() {
		if s.GetName() == HeadSubject && "sha256:"+s.GetDigest()["sha256"] == head {
			found = true
		}
	}
	if !found {
		return nil, fmt.Errorf("the bundle does not sign the head %s", head)
	}
	v := &Verified{Timestamps: len(res.VerifiedTimestamps)}
	if fields := st.GetPredicate().GetFields(); fields != nil {
		v.Predicate.Head = fields["head"].GetStringValue()
		v.Predicate.Ledger = fields["ledger"].GetStringValue()
		v.Predicate.Blocks = int(fields["blocks"].GetNumberValue())
		v.Predicate.Format = fields["format"].GetStringValue()
		v.Predicate.Signer = fields["signer"].GetStringValue()
	}
	if v.Predicate.Head != head {
		return nil, fmt.Errorf("the statement's predicate names the head %q, not %s", v.Predicate.Head, head)
	}
	if id := res.VerifiedIdentity; id != nil {
		v.Identity, v.Issuer = id.SubjectAlternativeName.SubjectAlternativeName, id.Issuer.Issuer
	}
	if cert := res.Signature.Certificate; cert != nil {
		v.Identity, v.Issuer = cert.SubjectAlternativeName, cert.Issuer
	}
	return v, nil
}

// LoadTrustedRoot reads a trusted_root.json; with no path it fetches
// public-good Sigstore's through TUF (network).
func LoadTrustedRoot(path string) (root.TrustedMaterial, error) {
	if path == "" {
		tr, err := root.FetchTrustedRoot()
		if err != nil {
			return nil, fmt.Errorf("could not fetch the public-good trusted root (offline? pass --trusted-root): %w", err)
		}
		return tr, nil
	}
	tr, err := root.NewTrustedRootFromPath(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the trusted root %s: %w", path, err)
	}
	return tr, nil
}
