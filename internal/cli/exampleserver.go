package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

func (c *Command) exampleServerCmd() *cobra.Command {
	var httpAddr string
	cmd := &cobra.Command{
		Use:   "example-server [--http ADDR]",
		Short: "Run the small, complete MCP server built into mcpverdict (stdio by default)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return errors.New("example-server: not implemented")
		},
	}
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP on ADDR (for example 127.0.0.1:8080) instead of stdio")
	return cmd
}
