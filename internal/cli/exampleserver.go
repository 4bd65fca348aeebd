package cli

import (
	"context"
	"fmt"
	"net"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exampleserver"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
)

func (c *Command) exampleServerCmd() *cobra.Command {
	var httpAddr string
	cmd := &cobra.Command{
		Use:   "example-server [--http ADDR]",
		Short: "Run the small, complete MCP server built into mcpverdict (stdio by default)",
		Long: `example-server runs the MCP server built into mcpverdict: small, deterministic
(the same requests get the same answers on every run) and exercising every
server feature of the specification. It is what 'mcpverdict check' judges when
given no server. By default it speaks MCP on standard input and output; with
--http it serves streamable HTTP at /mcp, prints the endpoint URL on standard
output and runs until interrupted (SIGINT or SIGTERM).

` + exampleserver.Description,
		Example: `  mcpverdict example-server
  mcpverdict example-server --http 127.0.0.1:8080
  mcpverdict capture -o session.jsonl stdio -- mcpverdict example-server`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if httpAddr != "" {
				return c.serveExampleHTTP(cmd.Context(), httpAddr)
			}
			return exitcode.Wrap(exitcode.Usage, exampleserver.RunStdio(cmd.Context(), c.Stdin, c.Stdout))
		},
	}
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP on ADDR (for example 127.0.0.1:8080) instead of stdio")
	return cmd
}

func (c *Command) serveExampleHTTP(ctx context.Context, addr string) error {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if !loopbackAddr(addr) {
		fmt.Fprintf(c.Stderr, "mcpverdict: warning: %s is not a loopback address; the example server has no authentication, so anyone who can reach it can use it\n", addr)
	}
	err := exampleserver.ServeHTTP(ctx, addr, func(url string) {
		fmt.Fprintln(c.Stdout, url)
		fmt.Fprintf(c.Stderr, "mcpverdict: example server listening at %s (Ctrl-C to stop)\n", url)
	})
	return exitcode.Wrap(exitcode.Usage, err)
}

// loopbackAddr reports whether a listen address binds loopback only, as
// the transport specification recommends for a local server.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
