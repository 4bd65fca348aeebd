package cli

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/merge"
)

func (c *Command) ledgerCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ledger",
		Short: "Verify, sign the head of, or export an evidence ledger",
		Long: `ledger works on the hash-chained evidence ledgers that check,
validate --ledger and evidence validate write: each block carries the hash of
the one before, and the hash of the last, the head, is written to a file of
its own, to be kept where the ledger's holder cannot edit it. 'ledger verify'
replays the chain up to that head, 'ledger sign' signs the head with
Sigstore, and 'ledger export' rewrites the chain in mcp-evidence-validator's
ledger format.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(c.ledgerVerifyCmd(), c.ledgerSignCmd(), c.ledgerExportCmd())
	return cmd
}

type ledgerVerifyFlags struct {
	ledger       string
	expectedHead string
	sig          bundleFlags
}

func (c *Command) ledgerVerifyCmd() *cobra.Command {
	var f ledgerVerifyFlags
	cmd := &cobra.Command{
		Use:   "verify --ledger LEDGER --expected-head HEAD",
		Short: "Replay a ledger's hash chain and check it reaches the head kept elsewhere",
		Long: `verify replays the ledger's SHA-256 hash chain, checks every block's index,
prev_hash and hash, and compares the head it reaches with --expected-head, the
head kept where the ledger's holder cannot edit it. It reads mcpverdict ledgers
and mcp-evidence-validator ledgers (format 0.2 and 0.3), and lists every
problem it finds.

With --bundle it first checks the Sigstore bundle signs that head, for the
signer given by --certificate-identity (or -regexp) and
--certificate-oidc-issuer (or -regexp), against --trusted-root or
public-good Sigstore; bytes that are no Sigstore bundle are refused before
a trusted root is fetched.

A merged ledger (mcpverdict merge) is checked down to each job's chain: the
job's copy of its ledger, beside the merged one under jobs/JOB/, must have
the digest its block names and verify to the head its block names, and the
job's report, head file and bundle, and the merged report.json, must be
those the blocks name; each problem names its job.

` + exitcode.Section(
			exitcode.Means(exitcode.OK, "the ledger is intact and reaches the head (and the bundle signs it)"),
			exitcode.Means(exitcode.Fail, "refused: a problem in the chain, a head it does not reach, or a bundle that does not sign it"),
			exitcode.Means(exitcode.Usage, "bad invocation (no --expected-head, no identity for --bundle), or a ledger, bundle or trusted root that cannot be read"),
		),
		Example: `  mcpverdict ledger verify --ledger mcpverdict-out/ledger.ndjson --expected-head "$(cat mcpverdict-out/ledger.head)"`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.runLedgerVerify(&f)
		},
	}
	cmd.Flags().StringVar(&f.ledger, "ledger", "", "the ledger file to verify")
	cmd.Flags().StringVar(&f.expectedHead, "expected-head", "", "the head recorded outside the ledger: the digest (sha256:…) or its head file (required)")
	f.sig.register(cmd)
	return cmd
}

var headPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// parseHead checks a head given on the command line.
func parseHead(flag, s string) (string, error) {
	head := strings.TrimSpace(s)
	if head == "" {
		return "", exitcode.New(exitcode.Usage, "%s is required: the ledger head kept outside the ledger (its .head file, or the line the run printed)", flag)
	}
	if !headPattern.MatchString(head) {
		return "", exitcode.New(exitcode.Usage, "%s %q is not a head: expected sha256: and 64 lowercase hex digits", flag, head)
	}
	return head, nil
}

func (c *Command) runLedgerVerify(f *ledgerVerifyFlags) error {
	holdLedgerHeap()
	if f.ledger == "" {
		return exitcode.New(exitcode.Usage, "--ledger is required: the ledger file to verify")
	}
	head, err := readHeadArg("--expected-head", f.expectedHead)
	if err != nil {
		return err
	}
	if f.sig.bundle != "" {
		if err := c.verifyBundle(&f.sig, head); err != nil {
			return err
		}
	}
	res, err := ledger.VerifyFile(f.ledger, head)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	if !res.Intact() {
		res.WriteProblems(c.Stderr, f.ledger)
		return exitWith(exitcode.Fail)
	}
	if res.Types[merge.JobBlock] > 0 {
		return c.verifyMergedJobs(f.ledger, res)
	}
	res.WriteIntact(c.Stdout)
	return nil
}

// verifyMergedJobs checks a merged ledger (mcpverdict merge) down to each
// job's own chain.
func (c *Command) verifyMergedJobs(path string, res *ledger.Result) error {
	check, err := merge.VerifyJobs(path)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	if len(check.Problems) > 0 {
		res.Problems = check.Problems
		res.WriteProblems(c.Stderr, path)
		return exitWith(exitcode.Fail)
	}
	res.WriteIntact(c.Stdout)
	fmt.Fprintf(c.Stdout, "jobs: %d, each job's ledger verified against the head its block names\n", check.Jobs)
	return nil
}
