package sign

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	sgsign "github.com/sigstore/sigstore-go/pkg/sign"
)

// The public-good Sigstore instances.
const (
	PublicFulcio = "https://fulcio.sigstore.dev"
	PublicRekor  = "https://rekor.sigstore.dev"
	PublicTSA    = "https://timestamp.sigstore.dev/api/v1/timestamp"
)

// Options configure a signing.
type Options struct {
	// Predicate describes the head to sign; Predicate.Head is required.
	Predicate Predicate
	// IDToken is the signer's OIDC token (audience sigstore).
	IDToken string
	// FulcioURL, RekorURL and TSAURL are the instances to use; empty means
	// public-good Sigstore for Fulcio and Rekor. TSAURL "-" signs without a
	// timestamp authority (Rekor's integrated time then dates the signature).
	FulcioURL, RekorURL, TSAURL string
	// Transport carries the requests to Fulcio and the timestamp authority
	// (nil: http.DefaultTransport).
	Transport http.RoundTripper
	// Timeout bounds each request (0: 30s).
	Timeout time.Duration
}

func (o *Options) defaults() {
	if o.FulcioURL == "" {
		o.FulcioURL = PublicFulcio
	}
	if o.RekorURL == "" {
		o.RekorURL = PublicRekor
	}
	if o.TSAURL == "" {
		o.TSAURL = PublicTSA
	}
	if o.Timeout == 0 {
		o.Timeout = 30 * time.Second
	}
}

// Sign signs the head keylessly and returns the Sigstore bundle (v0.3) as
// JSON.
func Sign(ctx context.Context, opts Options) ([]byte, error) {
	opts.defaults()
	if opts.IDToken == "" {
		return nil, ErrNoAmbientToken
	}
	payload, err := Statement(opts.Predicate)
	if err != nil {
		return nil, err
	}
	keypair, err := sgsign.NewEphemeralKeypair(nil)
	if err != nil {
		return nil, fmt.Errorf("could not make a signing key: %w", err)
	}
	bundleOpts := sgsign.BundleOptions{
		Context:                    ctx,
		CertificateProvider:        sgsign.NewFulcio(&sgsign.FulcioOptions{BaseURL: opts.FulcioURL, Timeout: opts.Timeout, Transport: opts.Transport}),
		CertificateProviderOptions: &sgsign.CertificateProviderOptions{IDToken: opts.IDToken},
		TransparencyLogs:           []sgsign.Transparency{sgsign.NewRekor(&sgsign.RekorOptions{BaseURL: opts.RekorURL, Timeout: opts.Timeout})},
	}
	if opts.TSAURL != "-" {
		bundleOpts.TimestampAuthorities = []*sgsign.TimestampAuthority{
			sgsign.NewTimestampAuthority(&sgsign.TimestampAuthorityOptions{URL: opts.TSAURL, Timeout: opts.Timeout, Transport: opts.Transport}),
		}
	}
	content := &sgsign.DSSEData{Data: payload, PayloadType: "application/vnd.in-toto+json"}
	pb, err := sgsign.Bundle(content, keypair, bundleOpts)
	if err != nil {
		return nil, fmt.Errorf("could not sign the head: %w", err)
	}
	b, err := bundle.NewBundle(pb)
	if err != nil {
		return nil, fmt.Errorf("could not sign the head: %w", err)
	}
	return b.MarshalJSON()
}

// The environment variables that point signing at other Sigstore instances
// (a private deployment, or the tests' stand-ins).
const (
	EnvFulcioURL = "MCPVERDICT_FULCIO_URL"
	EnvRekorURL  = "MCPVERDICT_REKOR_URL"
	EnvTSAURL    = "MCPVERDICT_TSA_URL"
)

// InstancesFromEnv returns the Sigstore instances the environment names;
// unset ones stay empty, which means public good.
func InstancesFromEnv(getenv func(string) string) Options {
	return Options{FulcioURL: getenv(EnvFulcioURL), RekorURL: getenv(EnvRekorURL), TSAURL: getenv(EnvTSAURL)}
}
