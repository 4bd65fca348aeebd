package cli

import (
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
)

func (c *Command) schemaCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Manage the MCP JSON Schemas the wire-schema check uses",
	}
	cmd.AddCommand(c.schemaFetchCmd())
	return cmd
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
