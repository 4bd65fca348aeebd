package cli

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
	"github.com/mcpverdict/mcpverdict/reporters"
)

func (c *Command) schemaCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Fetch the MCP JSON Schemas the wire-schema check uses, or print those of mcpverdict's own files",
		Long: `schema fetch downloads the MCP specification's JSON Schema of each revision,
which validate and check then use to check every message on the wire against
it. schema print writes the JSON Schema of a file mcpverdict itself writes,
for the tools that read those files.`,
	}
	cmd.AddCommand(c.schemaFetchCmd(), c.schemaPrintCmd())
	return cmd
}

// publishedSchemas are the JSON Schemas of what mcpverdict writes, by the
// name schema print takes.
var publishedSchemas = map[string][]byte{
	"report":       reporters.ReportSchema,
	"trace-event":  trace.EventSchema,
	"probe-report": probe.ReportSchema,
}

func (c *Command) schemaPrintCmd() *cobra.Command {
	names := slices.Sorted(maps.Keys(publishedSchemas))
	return &cobra.Command{
		Use:   "print " + strings.Join(names, "|"),
		Short: "Print the JSON Schema of a file mcpverdict writes: the json report, one trace line, the probe's json report",
		Long: `print writes to stdout the JSON Schema of one file mcpverdict writes: report,
the report of validate and check with --format json (report.json); trace-event,
one line of a trace as capture writes it; probe-report, the report of probe
run with --format json (probe-report.json).`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			doc, ok := publishedSchemas[args[0]]
			if !ok {
				return exitcode.New(exitcode.Usage, "unknown schema %q: choose one of %s", args[0], strings.Join(names, ", "))
			}
			_, err := c.Stdout.Write(doc)
			return exitcode.Wrap(exitcode.Usage, err)
		},
	}
}

func (c *Command) schemaFetchCmd() *cobra.Command {
	var dir, baseURL string
	cmd := &cobra.Command{
		Use:   "fetch [--dir DIR]",
		Short: "Download each revision's schema.json at the pinned spec commit and check its SHA-256",
		Long: fmt.Sprintf(`fetch downloads schema/<revision>/schema.json from the specification
repository at commit %s, refuses any file whose SHA-256 is not the
pinned one, and writes it to the user cache (or --dir), where validate and
check find it.`, wireschema.SpecCommit),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				d, err := wireschema.CacheDir()
				if err != nil {
					return exitcode.New(exitcode.Usage, "no user cache directory (%v): pass --dir", err)
				}
				dir = d
			}
			client := &http.Client{Timeout: 60 * time.Second}
			paths, err := wireschema.Fetch(cmd.Context(), client, baseURL, dir)
			for _, p := range paths {
				fmt.Fprintln(c.Stdout, p)
			}
			return exitcode.Wrap(exitcode.Usage, err)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "write DIR/<revision>/schema.json (default: the user cache)")
	cmd.Flags().StringVar(&baseURL, "base-url", wireschema.DefaultBaseURL, "where the repository's raw files are (a mirror, for example)")
	return cmd
}
