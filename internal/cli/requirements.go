package cli

import (
	"encoding/json"
	"fmt"
	"io"
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
		writeClauseDetail(c.Stdout, clauses[0])
		return nil
	}
	writeClauseList(c.Stdout, clauses)
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
	var out []*spec.Clause
	for _, c := range reg.Clauses {
		if f.matches(c) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (f *requirementsFlags) matches(c *spec.Clause) bool {
	switch {
	case f.area != "" && !strings.EqualFold(c.Area, f.area):
		return false
	case f.level != "" && !strings.EqualFold(string(c.Level), f.level):
		return false
	case f.checked && !c.Judged(), f.excluded && c.Judged():
		return false
	}
	return true
}

func writeClauseList(w io.Writer, clauses []*spec.Clause) {
	for _, c := range clauses {
		how := "check " + c.Check
		if !c.Judged() {
			how = "excluded"
		}
		fmt.Fprintf(w, "%-9s %-10s %-6s %-40s %s\n", c.ID, c.Level, c.Party, how, clip(c.Quote, 90))
	}
	fmt.Fprintf(w, "%d clause(s)\n", len(clauses))
}

func writeClauseDetail(w io.Writer, c *spec.Clause) {
	fmt.Fprintf(w, "%s (%s, %s) binds the %s\n  %q\n  %s\n", c.ID, c.Level, c.Revision, c.Party, c.Quote, c.URL)
	if c.Capability != "" {
		fmt.Fprintf(w, "  applies when capability %s was negotiated\n", c.Capability)
	}
	if c.Transport != "" {
		fmt.Fprintf(w, "  applies over %s only\n", c.Transport)
	}
	if c.Judged() {
		fmt.Fprintf(w, "  judged by check %s\n", c.Check)
	} else {
		fmt.Fprintf(w, "  excluded: %s\n", c.Exclusion)
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
