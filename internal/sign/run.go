package sign

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"

	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
)

// The modes of the action's sign input.
const (
	// ModeAuto signs when an OIDC token can be had, and says why not when
	// it cannot (a fork's pull request, a job without id-token: write).
	ModeAuto = "auto"
	// ModeAlways signs or fails.
	ModeAlways = "true"
	// ModeNever does not sign.
	ModeNever = "false"
)

// RunOptions describe signing the head a run left in its output directory.
type RunOptions struct {
	// Mode is ModeAuto, ModeAlways or ModeNever.
	Mode string
	// Ledger and HeadFile are the run's ledger and head file; the bundle is
	// written beside the head file, as HeadFile + ".sigstore.json".
	Ledger, HeadFile string
	// Version is the signing mcpverdict's version, for the statement.
	Version string
	// Getenv reads ACTIONS_ID_TOKEN_REQUEST_URL and _TOKEN.
	Getenv func(string) string
	// HTTP fetches the OIDC token (nil: http.DefaultClient).
	HTTP *http.Client
	// Sigstore overrides the instances (FulcioURL, RekorURL, TSAURL and
	// Transport of Options); empty fields mean public good.
	Sigstore Options
}

// SignRun signs a run's head as Mode says. It returns the bundle's path
// ("" when nothing was signed) and, when Mode is auto and no token can be
// had, a notice saying why signing was skipped; that is not an error.
func SignRun(ctx context.Context, opts RunOptions) (bundlePath, notice string, err error) {
	if opts.Mode == ModeNever {
		return "", "", nil
	}
	if opts.Mode != ModeAuto && opts.Mode != ModeAlways {
		return "", "", fmt.Errorf("sign is %q: use auto, true or false", opts.Mode)
	}
	client := opts.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	token, err := GitHubToken(ctx, client, opts.Getenv)
	if errors.Is(err, ErrNoAmbientToken) && opts.Mode == ModeAuto {
		return "", "the ledger head was not signed: " + err.Error(), nil
	}
	if err != nil {
		return "", "", err
	}
	pred, err := describe(opts)
	if err != nil {
		return "", "", err
	}
	sopts := opts.Sigstore
	sopts.Predicate, sopts.IDToken = pred, token
	bundle, err := Sign(ctx, sopts)
	if err != nil {
		return "", "", err
	}
	bundlePath = opts.HeadFile + ".sigstore.json"
	return bundlePath, "", outfile.WriteFile(bundlePath, append(bundle, '\n'))
}

// describe reads the head and checks the ledger reaches it: a head the
// ledger does not reach is never signed.
func describe(opts RunOptions) (Predicate, error) {
	head, err := ReadHeadFile(opts.HeadFile)
	if err != nil {
		return Predicate{}, err
	}
	res, err := ledger.VerifyFile(opts.Ledger, head)
	if err != nil {
		return Predicate{}, err
	}
	if !res.Intact() {
		return Predicate{}, fmt.Errorf("refusing to sign %s: the ledger %s does not reach it (%s)", head, opts.Ledger, res.Problems[0])
	}
	return Predicate{Head: head, Ledger: filepath.Base(opts.Ledger), Blocks: res.Blocks, Format: res.Format, Signer: opts.Version}, nil
}
