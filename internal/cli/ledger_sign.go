package cli

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
	"github.com/mcpverdict/mcpverdict/internal/sign"
)

type ledgerSignFlags struct {
	head, output, ledger, identityToken string
	fulcio, rekor, tsa                  string
}

func (c *Command) ledgerSignCmd() *cobra.Command {
	var f ledgerSignFlags
	cmd := &cobra.Command{
		Use:   "sign --head HEAD -o HEAD.sigstore.json",
		Short: "Sign a ledger head keylessly with Sigstore",
		Long: `sign signs a ledger head keylessly: an in-toto statement whose subject is the
head, in a DSSE envelope signed by an ephemeral key that Fulcio certifies for
your OIDC identity, logged in Rekor and timestamped, written as a Sigstore
bundle (v0.3). On GitHub Actions the identity token comes from the job (it
needs permissions: id-token: write); elsewhere pass --identity-token. With
--ledger, the ledger is verified against the head first, and its file name,
length and format go into the statement.

` + exitcode.Section(
			exitcode.Means(exitcode.OK, "signed"),
			exitcode.Means(exitcode.Fail, "the ledger does not reach the head"),
			exitcode.Means(exitcode.Usage, "bad invocation, no identity token, or a Sigstore service that refused or could not be reached"),
		),
		Example: `  mcpverdict ledger sign --head mcpverdict-out/ledger.head --ledger mcpverdict-out/ledger.ndjson -o mcpverdict-out/ledger.head.sigstore.json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.runLedgerSign(cmd.Context(), &f)
		},
	}
	cmd.Flags().StringVar(&f.head, "head", "", "the head to sign: a head file (ledger.head) or the digest itself (required)")
	cmd.Flags().StringVarP(&f.output, "output", "o", "", "where to write the bundle (default: the head file with .sigstore.json appended)")
	cmd.Flags().StringVar(&f.ledger, "ledger", "", "verify this ledger reaches the head before signing, and describe it in the statement")
	cmd.Flags().StringVar(&f.identityToken, "identity-token", "", "an OIDC token (audience sigstore) to sign with, outside GitHub Actions")
	cmd.Flags().StringVar(&f.fulcio, "fulcio-url", sign.PublicFulcio, "the Fulcio instance")
	cmd.Flags().StringVar(&f.rekor, "rekor-url", sign.PublicRekor, "the Rekor instance")
	cmd.Flags().StringVar(&f.tsa, "tsa-url", sign.PublicTSA, `the RFC 3161 timestamp authority ("-": none)`)
	return cmd
}

// readHeadArg takes a head given as a digest or as the path of a head file.
func readHeadArg(flag, value string) (string, error) {
	if value != "" && !strings.HasPrefix(value, "sha256:") {
		b, err := os.ReadFile(value)
		if err != nil && !os.IsNotExist(err) {
			return "", exitcode.New(exitcode.Usage, "cannot read the head file: %v", err)
		}
		if err == nil {
			value = string(b)
		}
	}
	return parseHead(flag, value)
}

func (c *Command) runLedgerSign(ctx context.Context, f *ledgerSignFlags) error {
	head, err := readHeadArg("--head", f.head)
	if err != nil {
		return err
	}
	pred := sign.Predicate{Head: head, Signer: Version()}
	if f.ledger != "" {
		if pred, err = c.describeLedger(f.ledger, pred); err != nil {
			return err
		}
	}
	token := f.identityToken
	if token == "" {
		if token, err = sign.GitHubToken(ctx, http.DefaultClient, c.getenv); err != nil {
			return exitcode.Wrap(exitcode.Usage, err)
		}
	}
	bundle, err := sign.Sign(ctx, sign.Options{Predicate: pred, IDToken: token, FulcioURL: f.fulcio, RekorURL: f.rekor, TSAURL: f.tsa})
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	out := f.output
	if out == "" {
		out = defaultBundlePath(f.head)
	}
	if err := outfile.WriteFile(out, append(bundle, '\n')); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	fmt.Fprintf(c.Stderr, "mcpverdict: signed %s: %s\n", head, out)
	return nil
}

func defaultBundlePath(head string) string {
	if strings.HasPrefix(head, "sha256:") {
		return "ledger.head.sigstore.json"
	}
	return head + ".sigstore.json"
}

// describeLedger verifies the ledger reaches the head and fills the
// predicate's description of it.
func (c *Command) describeLedger(path string, pred sign.Predicate) (sign.Predicate, error) {
	res, err := ledger.VerifyFile(path, pred.Head)
	if err != nil {
		return pred, exitcode.Wrap(exitcode.Usage, err)
	}
	if !res.Intact() {
		res.WriteProblems(c.Stderr, path)
		return pred, exitcode.New(exitcode.Fail, "refusing to sign a head the ledger %s does not reach", path)
	}
	pred.Ledger, pred.Blocks, pred.Format = filepath.Base(path), res.Blocks, res.Format
	return pred, nil
}

// bundleFlags are ledger verify's signature options.
type bundleFlags struct {
	bundle, trustedRoot      string
	identity, identityRegexp string
	issuer, issuerRegexp     string
}

func (f *bundleFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.bundle, "bundle", "", "also verify this Sigstore bundle signs the expected head")
	cmd.Flags().StringVar(&f.identity, "certificate-identity", "", "the signer to trust (GitHub Actions: https://github.com/OWNER/REPO/.github/workflows/FILE@REF)")
	cmd.Flags().StringVar(&f.identityRegexp, "certificate-identity-regexp", "", "a regexp the signer must match, instead of --certificate-identity")
	cmd.Flags().StringVar(&f.issuer, "certificate-oidc-issuer", "", "the OIDC issuer to trust (GitHub Actions: https://token.actions.githubusercontent.com)")
	cmd.Flags().StringVar(&f.issuerRegexp, "certificate-oidc-issuer-regexp", "", "a regexp the issuer must match, instead of --certificate-oidc-issuer")
	cmd.Flags().StringVar(&f.trustedRoot, "trusted-root", "", "a trusted_root.json to verify against (default: public-good Sigstore's, fetched through TUF)")
}

// verifyBundle checks the bundle signs head; a bundle that does not is a
// refusal (exit 1), missing flags or an unreadable file a usage error.
func (c *Command) verifyBundle(f *bundleFlags, head string) error {
	if (f.identity == "") == (f.identityRegexp == "") || (f.issuer == "") == (f.issuerRegexp == "") {
		return exitcode.New(exitcode.Usage, "--bundle needs one of --certificate-identity and --certificate-identity-regexp, and one of --certificate-oidc-issuer and --certificate-oidc-issuer-regexp")
	}
	data, err := os.ReadFile(f.bundle)
	if err != nil {
		return exitcode.New(exitcode.Usage, "cannot read the bundle: %v", err)
	}
	// Parsed first: bytes that are no bundle are refused before the
	// trusted root is fetched over the network.
	b, err := sign.ParseBundle(data)
	if err != nil {
		return exitcode.New(exitcode.Usage, "%s: %s", f.bundle, firstLine(err.Error()))
	}
	tr, err := sign.LoadTrustedRoot(f.trustedRoot)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	v, err := b.Verify(sign.VerifyOptions{Head: head, TrustedRoot: tr, Identity: f.identity, IdentityRegexp: f.identityRegexp, Issuer: f.issuer, IssuerRegexp: f.issuerRegexp})
	if err != nil {
		return exitcode.New(exitcode.Fail, "bundle %s refused: %v", f.bundle, err)
	}
	fmt.Fprintf(c.Stdout, "signature verified: %s signed the head (issuer %s, %d verified timestamps)\n", v.Identity, v.Issuer, v.Timestamps)
	return nil
}
