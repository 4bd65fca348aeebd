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
	var auth bool
	var faults []string
	cmd := &cobra.Command{
		Use:   "example-server [--http ADDR [--auth [--auth-fault FAULT]...]]",
		Short: "Run the small, complete MCP server built into mcpverdict (stdio by default)",
		Long: `example-server runs the MCP server built into mcpverdict: small, deterministic
(the same requests get the same answers on every run) and exercising every
server feature of the specification. It is what 'mcpverdict check' judges when
given no server. By default it speaks MCP on standard input and output; with
--http it serves streamable HTTP at /mcp, prints the endpoint URL on standard
output and runs until interrupted (SIGINT or SIGTERM). With --auth the
endpoint takes bearer tokens only, issued by an authorization-server
stand-in on a loopback port (client_credentials at its /token, no login),
and serves its protected resource metadata; --auth-fault no-challenge,
no-metadata or query-token makes one authorization mistake on purpose.

` + exampleserver.Description,
		Example: `  mcpverdict example-server
  mcpverdict example-server --http 127.0.0.1:8080
  mcpverdict example-server --http 127.0.0.1:8080 --auth --auth-fault query-token
  mcpverdict capture -o session.jsonl stdio -- mcpverdict example-server`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := exampleAuthOptions(auth, faults, httpAddr)
			if err != nil {
				return err
			}
			if httpAddr != "" {
				return c.serveExampleHTTP(cmd.Context(), httpAddr, opts)
			}
			return exitcode.Wrap(exitcode.Usage, exampleserver.RunStdio(cmd.Context(), c.Stdin, c.Stdout))
		},
	}
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP on ADDR (for example 127.0.0.1:8080) instead of stdio")
	cmd.Flags().BoolVar(&auth, "auth", false, "with --http: require bearer tokens from a loopback authorization-server stand-in")
	cmd.Flags().StringArrayVar(&faults, "auth-fault", nil, "with --auth: make one authorization mistake: no-challenge, no-metadata or query-token (repeatable)")
	return cmd
}

func (c *Command) serveExampleHTTP(ctx context.Context, addr string, opts exampleserver.HTTPOptions) error {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if !loopbackAddr(addr) && !opts.Auth {
		fmt.Fprintf(c.Stderr, "mcpverdict: warning: %s is not a loopback address; the example server has no authentication, so anyone who can reach it can use it\n", addr)
	}
	opts.IssuerReady = func(issuer string) {
		fmt.Fprintf(c.Stderr, "mcpverdict: authorization server stand-in at %s (POST grant_type=client_credentials and resource=<endpoint> to %s/token for a token)\n", issuer, issuer)
	}
	err := exampleserver.ServeHTTPWith(ctx, addr, opts, func(url string) {
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

// exampleAuthOptions reads --auth and --auth-fault.
func exampleAuthOptions(auth bool, faults []string, httpAddr string) (exampleserver.HTTPOptions, error) {
	opts := exampleserver.HTTPOptions{Auth: auth}
	switch {
	case auth && httpAddr == "":
		return opts, exitcode.New(exitcode.Usage, "--auth needs --http ADDR: authorization guards the HTTP endpoint")
	case len(faults) > 0 && !auth:
		return opts, exitcode.New(exitcode.Usage, "--auth-fault needs --auth")
	}
	faultSet, err := exampleserver.ParseAuthFaults(faults)
	if err != nil {
		return opts, exitcode.Wrap(exitcode.Usage, err)
	}
	opts.Faults = faultSet
	return opts, nil
}
