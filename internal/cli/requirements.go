package cli

import (
	"encoding/json"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

type requirementsFlags struct {
	revision, area, level, format string
	checked, excluded             bool
}

func (c *Command) requirementsCmd() *cobra.Command {
	var f requirementsFlags
	cmd := &cobra.Command{
		Use:   "requirements [ID] [flags]",
		Short: "List the clauses of the registry: what is judged, what is excluded and why",
		Long: `requirements lists the normative clauses of a specification revision (the
newest by default) as the registry holds them: one line per clause with its
ID, level, the party it binds, and the check that judges it or "excluded".
--area, --level, --checked and --excluded narrow the list. Given a clause ID,
it shows that clause in full: its quote, where the specification says it,
what it applies to, and the check that judges it or the reason it is
excluded. --format json prints the same clauses as JSON.`,
		Example: `  mcpverdict requirements --area TOOL --checked
  mcpverdict requirements LIFE-009 --revision 2025-11-25`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.runRequirements(&f, args)
		},
	}
	cmd.Flags().StringVar(&f.revision, "revision", spec.Newest(), "revision: "+strings.Join(spec.Revisions, ", "))
	cmd.Flags().StringVar(&f.area, "area", "", "only this area (BASE, LIFE, TOOL, ...)")
	cmd.Flags().StringVar(&f.level, "level", "", "only this level (MUST, MUST NOT, SHOULD, SHOULD NOT, MAY)")
	cmd.Flags().BoolVar(&f.checked, "checked", false, "only clauses a check judges")
	cmd.Flags().BoolVar(&f.excluded, "excluded", false, "only clauses excluded with a reason")
	cmd.Flags().StringVar(&f.format, "format", "text", "text or json")
	return cmd
}

func (c *Command) runRequirements(f *requirementsFlags, args []string) error {
	reg, err := spec.Load(f.revision)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	if f.format != "text" && f.format != "json" {
		return exitcode.New(exitcode.Usage, `unknown --format %q: choose "text" or "json"`, f.format)
	}
	clauses, err := selectClauses(reg, f, args)
	if err != nil {
		return err
	}
	if f.format == "json" {
		enc := json.NewEncoder(c.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(clauses)
	}
	if len(args) == 1 {
		spec.WriteDetail(c.Stdout, clauses[0])
		return nil
	}
	spec.WriteList(c.Stdout, clauses)
	return nil
}

func selectClauses(reg *spec.Registry, f *requirementsFlags, args []string) ([]*spec.Clause, error) {
	if len(args) == 1 {
		c := reg.ByID(strings.ToUpper(args[0]))
		if c == nil {
			return nil, exitcode.New(exitcode.Usage, "no clause %q in revision %s (list them with mcpverdict requirements --revision %s)", args[0], reg.Revision, reg.Revision)
		}
		return []*spec.Clause{c}, nil
	}
	return reg.Select(spec.Filter{Area: f.area, Level: f.level, Checked: f.checked, Excluded: f.excluded}), nil
}
