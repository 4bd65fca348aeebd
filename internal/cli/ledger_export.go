package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
)

type ledgerExportFlags struct {
	ledger       string
	format       string
	out          string
	expectedHead string
}

func (c *Command) ledgerExportCmd() *cobra.Command {
	var f ledgerExportFlags
	cmd := &cobra.Command{
		Use:   "export --ledger LEDGER --format mcp-evidence-validator [-o OUT]",
		Short: "Write an mcpverdict ledger's chain in mcp-evidence-validator's ledger format",
		Long: `export verifies an mcpverdict ledger and writes the same blocks, in order, as
an mcp-evidence-validator ledger (format ` + ledger.MEVVersion + `): one JSON document whose blocks
keep their index, type and record and are chained anew under that format's
hashing, the previous hash followed by the canonical {"record","type"}. That
tool's verify, and mcpverdict's own, read the result.

A ledger that does not verify is refused, and so is one that does not reach
--expected-head when it is given. The head of the export, the hash of its last
block, is printed on stderr as "head: sha256:..." for that tool's
verify --expected-head; it differs from the mcpverdict ledger's head, and
exporting the same ledger again reaches the same one.

The export goes to stdout once the whole ledger has verified, or with -o to
OUT, written whole or not at all.

` + exitcode.Section(
			exitcode.Means(exitcode.OK, "exported"),
			exitcode.Means(exitcode.Usage, "bad invocation, a ledger that cannot be read or does not verify, or an output that cannot be written"),
		),
		Example: `  mcpverdict ledger export --ledger mcpverdict-out/ledger.ndjson --expected-head mcpverdict-out/ledger.head \
    --format mcp-evidence-validator -o evidence.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.runLedgerExport(&f)
		},
	}
	cmd.Flags().StringVar(&f.ledger, "ledger", "", "the mcpverdict ledger to export (required)")
	cmd.Flags().StringVar(&f.format, "format", "", "the format to write: "+ledger.ForeignName+" (required)")
	cmd.Flags().StringVarP(&f.out, "out", "o", "", "write the export to FILE instead of stdout")
	cmd.Flags().StringVar(&f.expectedHead, "expected-head", "", "refuse a ledger that does not reach this head: the digest (sha256:…) or its head file")
	return cmd
}

func (c *Command) runLedgerExport(f *ledgerExportFlags) error {
	holdLedgerHeap()
	if f.ledger == "" {
		return exitcode.New(exitcode.Usage, "--ledger is required: the mcpverdict ledger to export")
	}
	switch f.format {
	case ledger.ForeignName:
	case "":
		return exitcode.New(exitcode.Usage, "--format is required: the format to write (%s)", ledger.ForeignName)
	default:
		return exitcode.New(exitcode.Usage, "--format %q: export writes %s", f.format, ledger.ForeignName)
	}
	head := ""
	if f.expectedHead != "" {
		var err error
		if head, err = readHeadArg("--expected-head", f.expectedHead); err != nil {
			return err
		}
	}
	var exp *ledger.Exported
	var err error
	if f.out != "" {
		exp, err = c.exportToFile(f, head)
	} else {
		exp, err = c.exportToStdout(f, head)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Stderr, "mcpverdict: exported %d blocks of %s (mcpverdict head %s) as %s %s\n", exp.Blocks, f.ledger, exp.SourceHead, ledger.ForeignName, ledger.MEVVersion)
	fmt.Fprintf(c.Stderr, "head: %s\n", exp.Head)
	return nil
}

func (c *Command) exportToFile(f *ledgerExportFlags, head string) (*ledger.Exported, error) {
	// The rename at commit would put the export in place of the ledger, and
	// with it the chain whose head was kept.
	if in, err := os.Stat(f.ledger); err == nil {
		if out, err := os.Stat(f.out); err == nil && os.SameFile(in, out) {
			return nil, exitcode.New(exitcode.Usage, "-o %s is the ledger itself: the export would replace it", f.out)
		}
	}
	if err := os.MkdirAll(filepath.Dir(f.out), 0o755); err != nil {
		return nil, exitcode.New(exitcode.Usage, "cannot write %s: %v", f.out, unwrapPath(err))
	}
	out, err := outfile.Create(f.out)
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, err)
	}
	defer out.Abort()
	exp, err := exportLedger(f.ledger, f.out, out, head)
	if err != nil {
		return nil, err
	}
	if err := out.Commit(); err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, err)
	}
	return exp, nil
}

// exportToStdout exports twice, first to nowhere: stdout cannot be taken
// back, and a ledger refused at its last line must leave nothing there.
func (c *Command) exportToStdout(f *ledgerExportFlags, head string) (*ledger.Exported, error) {
	dry, err := exportLedger(f.ledger, "stdout", io.Discard, head)
	if err != nil {
		return nil, err
	}
	exp, err := exportLedger(f.ledger, "stdout", c.Stdout, dry.SourceHead)
	if err != nil {
		return nil, err
	}
	return exp, nil
}

// exportLedger exports the ledger at path to w, named dest in messages.
func exportLedger(path, dest string, w io.Writer, head string) (*ledger.Exported, error) {
	in, err := os.Open(path)
	if err != nil {
		return nil, exitcode.New(exitcode.Usage, "cannot read the ledger: %v", err)
	}
	defer in.Close()
	exp, err := ledger.ExportMEV(in, w, head)
	var refused *ledger.RefusedError
	var werr *ledger.WriteError
	switch {
	case err == nil:
		return exp, nil
	case errors.As(err, &refused):
		return nil, exitcode.New(exitcode.Usage, "ledger %s not exported: %s", path, refused.Reason)
	case errors.As(err, &werr):
		return nil, exitcode.New(exitcode.Usage, "cannot write %s: %v", dest, unwrapPath(werr.Err))
	}
	return nil, exitcode.New(exitcode.Usage, "cannot read the ledger %s: %v", path, err)
}
