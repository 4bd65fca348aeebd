package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpverdict/mcpverdict/internal/evidence"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
)

func (c *Command) evidenceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "evidence",
		Short: "Compare declared tools with observed calls (mcp-evidence-validator's formats)",
		Long: `evidence reads and writes the formats of mcp-evidence-validator: a
declaration manifest of the tools a server offers, an observation batch of
the calls seen, and the hash-chained ledger that records both with the
findings. 'evidence validate' checks the one against the other; the ledger
commands verify, sign and export the result.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(c.evidenceValidateCmd())
	return cmd
}

type evidenceValidateFlags struct {
	declared, observed, out, headOut string
}

func (c *Command) evidenceValidateCmd() *cobra.Command {
	var f evidenceValidateFlags
	cmd := &cobra.Command{
		Use:   "validate --declared D.json --observed O.json --out LEDGER [--head-out HEAD]",
		Short: "Check observed calls against a declaration manifest and write the evidence ledger",
		Long: `validate reads a declaration manifest and an observation batch in
mcp-evidence-validator's formats and checks each observation: the tool was
declared (unknown_tool), its contract hash still matches the declaration under
the same recipe (contract_mutated, recipe_mismatch), an annotation is bound to
it (unbound_annotation, else bound_unmutated), and its arguments stay inside
the declared input schema (scope_violation). It prints the report as JSON,
writes the ledger (provenance, declaration, observation_batch, report) and
prints its head on stderr.

` + exitcode.Section(
			exitcode.Means(exitcode.OK, "the report is produced, findings or not"),
			exitcode.Means(exitcode.Usage, "bad invocation or input (the error names the file and the JSON path), or an output that cannot be written"),
		),
		Example: `  mcpverdict evidence validate --declared declared.json --observed observed.json --out evidence.jsonl --head-out evidence.head`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.runEvidenceValidate(&f, invocation(cmd))
		},
	}
	cmd.Flags().StringVar(&f.declared, "declared", "", "the declaration manifest (JSON)")
	cmd.Flags().StringVar(&f.observed, "observed", "", "the observation batch (JSON)")
	cmd.Flags().StringVar(&f.out, "out", "", "where to write the evidence ledger")
	cmd.Flags().StringVar(&f.headOut, "head-out", "", "also write the ledger head to this file")
	return cmd
}

func (c *Command) runEvidenceValidate(f *evidenceValidateFlags, command []string) error {
	for flag, v := range map[string]string{"--declared": f.declared, "--observed": f.observed, "--out": f.out} {
		if v == "" {
			return exitcode.New(exitcode.Usage, "%s is required (see mcpverdict evidence validate --help)", flag)
		}
	}
	start := time.Now()
	declared, observed, err := readEvidenceInputs(f.declared, f.observed)
	if err != nil {
		return err
	}
	if !declared.RecipeStated {
		fmt.Fprintf(c.Stderr, "mcpverdict: note: %s states no contract_recipe; hashing under recipe 1 (name, description, input schema, permissions). New declarations should state \"3\".\n", f.declared)
	}
	rep, err := evidence.Validate(declared, observed)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	head, err := c.writeEvidenceLedger(f, declared, observed, rep, ledger.NewProvenance(Version(), command, start, c.getenv))
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	printHead(c, head)
	enc := json.NewEncoder(c.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

func readEvidenceInputs(declaredPath, observedPath string) (*evidence.Declared, *evidence.Observed, error) {
	db, err := os.ReadFile(declaredPath)
	if err != nil {
		return nil, nil, exitcode.New(exitcode.Usage, "cannot read the declaration: %v", err)
	}
	ob, err := os.ReadFile(observedPath)
	if err != nil {
		return nil, nil, exitcode.New(exitcode.Usage, "cannot read the observations: %v", err)
	}
	declared, err := evidence.ReadDeclared(declaredPath, db)
	if err != nil {
		return nil, nil, badInput(err)
	}
	observed, err := evidence.ReadObserved(observedPath, ob)
	if err != nil {
		return nil, nil, badInput(err)
	}
	return declared, observed, nil
}

// badInput gives an input error (it names the file and the JSON path) the
// usage status.
func badInput(err error) error { return exitcode.Wrap(exitcode.Usage, err) }

func (c *Command) writeEvidenceLedger(f *evidenceValidateFlags, d *evidence.Declared, o *evidence.Observed, rep *evidence.Report, prov ledger.Provenance) (string, error) {
	led, err := ledger.Create(f.out, prov)
	if err != nil {
		return "", err
	}
	defer led.Abort()
	if _, err := led.AppendValue("declaration", d.Raw); err != nil {
		return "", err
	}
	if _, err := led.AppendValue("observation_batch", o.Raw); err != nil {
		return "", err
	}
	if _, err := led.Append("report", rep); err != nil {
		return "", err
	}
	return led.Commit(f.headOut)
}

// printHead tells the user the ledger head and what to do with it.
func printHead(c *Command, head string) {
	fmt.Fprintf(c.Stderr, "mcpverdict: ledger head: %s\n", head)
	fmt.Fprintln(c.Stderr, "mcpverdict: keep that head outside the ledger (sign it, or note it down): ledger verify needs it back")
}

// invocation rebuilds the command line a subcommand ran with, for the
// ledger's provenance: its path and the flags that were set.
func invocation(cmd *cobra.Command) []string {
	out := strings.Fields(cmd.CommandPath())
	cmd.Flags().Visit(func(f *pflag.Flag) {
		out = append(out, "--"+f.Name+"="+f.Value.String())
	})
	return out
}
