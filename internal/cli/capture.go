package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/capture"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

type captureFlags struct {
	output string
}

func (c *Command) captureCmd() *cobra.Command {
	var f captureFlags
	cmd := &cobra.Command{
		Use:   "capture -o TRACE (stdio -- CMD [ARGS...] | http --upstream URL)",
		Short: "Record an MCP session byte for byte as a JSON Lines trace",
		Long: `capture sits between a client and a server without taking part: the stdio
wrapper runs the server and forwards its standard streams unchanged, the http
proxy forwards streamable HTTP (SSE included) unchanged. Each message is
recorded before the byte that completes it is forwarded.`,
	}
	cmd.PersistentFlags().StringVarP(&f.output, "output", "o", "", "trace file to write (required)")
	cmd.AddCommand(c.captureStdioCmd(&f), c.captureHTTPCmd(&f))
	return cmd
}

func (c *Command) captureStdioCmd(f *captureFlags) *cobra.Command {
	var limits stdioLimits
	cmd := &cobra.Command{
		Use:   "stdio [flags] -- CMD [ARGS...]",
		Short: "Wrap a stdio server command; point your client at this command instead",
		Long: `stdio runs the server command given after -- and forwards the client's
standard input to it and its standard output back, byte for byte, recording
each message in the trace (-o) before the byte that completes it is
forwarded. The server's stderr passes through unchanged and is kept in
TRACE.stderr too; the signals capture receives are passed on to the server.
Point your MCP client at this command line in place of the server's.

When the client closes standard input, the server has --close-grace to exit,
then gets SIGTERM, then --term-grace more before SIGKILL.

` + fmt.Sprintf(`Exit status: the server's own, or %d when the trace cannot be written or the
server command cannot be run.`, exitcode.Usage),
		Example: `  mcpverdict capture -o session.jsonl stdio -- npx -y @modelcontextprotocol/server-everything
  mcpverdict capture -o session.jsonl stdio --close-grace 10s -- python server.py`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.runCaptureStdio(cmd.Context(), f.output, args, limits)
		},
	}
	cmd.Flags().DurationVar(&limits.closeGrace, "close-grace", 5*time.Second, "after the client closes stdin, how long the server has to exit before SIGTERM")
	cmd.Flags().DurationVar(&limits.termGrace, "term-grace", 5*time.Second, "after SIGTERM, how long the server has to exit before SIGKILL")
	cmd.Flags().IntVar(&limits.maxLine, "max-line", capture.DefaultMaxLine, "longest line recorded whole, in bytes; a longer one is forwarded unchanged and recorded as raw, cut to this length")
	return cmd
}

// stdioLimits are the flags of capture stdio that bound a session.
type stdioLimits struct {
	closeGrace, termGrace time.Duration
	maxLine               int
}

func (c *Command) runCaptureStdio(ctx context.Context, output string, argv []string, limits stdioLimits) error {
	capture.RaiseProcsForStdio()
	tf, err := createTrace(output)
	if err != nil {
		return err
	}
	defer tf.Close()
	stderrLog, err := os.Create(output + ".stderr")
	if err != nil {
		return exitcode.New(exitcode.Usage, "cannot write %s: %v", output+".stderr", err)
	}
	defer stderrLog.Close()
	w := trace.NewWriter(tf)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	status, runErr := capture.RunStdio(ctx, capture.StdioConfig{
		Command: argv, Stdin: c.Stdin, Stdout: c.Stdout, Stderr: c.serverStderr(), StderrLog: stderrLog,
		Recorder: w, CloseGrace: limits.closeGrace, TermGrace: limits.termGrace, MaxLine: limits.maxLine, Signals: sigs,
	})
	if err := closeTrace(w, tf); err != nil && runErr == nil {
		runErr = exitcode.Wrap(exitcode.Usage, err)
	}
	if runErr != nil {
		return exitcode.Wrap(exitcode.Usage, runErr)
	}
	return exitWith(status.Code)
}

func (c *Command) captureHTTPCmd(f *captureFlags) *cobra.Command {
	var upstream, listen, caFile string
	var headerTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "http --upstream URL [--listen ADDR]",
		Short: "Run a recording reverse proxy in front of a streamable-HTTP server",
		Long: `http starts a reverse proxy in front of the server's MCP endpoint and prints
the URL to point your client at. It records every session through it in the
one trace; each event carries the session's mcp-session-id in "session". It
runs until interrupted (SIGINT or SIGTERM).`,
		Example: `  mcpverdict capture -o session.jsonl http --upstream http://127.0.0.1:3000/mcp`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.runCaptureHTTP(cmd.Context(), f.output, upstream, listen, caFile, headerTimeout)
		},
	}
	cmd.Flags().StringVar(&upstream, "upstream", "", "the server's MCP endpoint, http:// or https:// (required)")
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:0", "address to listen on (loopback by default; port 0 picks a free one)")
	cmd.Flags().StringVar(&caFile, "upstream-ca", "", "PEM file of extra CA certificates to trust for an https upstream")
	cmd.Flags().DurationVar(&headerTimeout, "upstream-header-timeout", capture.DefaultResponseHeaderTimeout, "how long upstream has to start its response before the exchange is aborted (the client gets 502)")
	return cmd
}

func (c *Command) runCaptureHTTP(ctx context.Context, output, upstream, listen, caFile string, headerTimeout time.Duration) error {
	up, err := parseUpstream(upstream)
	if err != nil {
		return err
	}
	tlsCfg, err := upstreamTLS(caFile)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return exitcode.New(exitcode.Usage, "cannot listen on %q: %v", listen, err)
	}
	defer ln.Close()
	tf, err := createTrace(output)
	if err != nil {
		return err
	}
	defer tf.Close()
	w := trace.NewWriter(tf)
	proxy, err := capture.NewProxy(capture.ProxyConfig{Upstream: up, Recorder: w, TLS: tlsCfg, ResponseHeaderTimeout: headerTimeout})
	if err != nil {
		w.Close()
		return exitcode.Wrap(exitcode.Usage, err)
	}
	serveErr := c.serveProxy(ctx, proxy, ln, up)
	if err := closeTrace(w, tf); err != nil && serveErr == nil {
		serveErr = exitcode.Wrap(exitcode.Usage, err)
	}
	return serveErr
}

func (c *Command) serveProxy(ctx context.Context, proxy *capture.Proxy, ln net.Listener, up *url.URL) error {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Handler: proxy, ReadHeaderTimeout: 30 * time.Second}
	clientURL := url.URL{Scheme: "http", Host: ln.Addr().String(), Path: up.Path}
	fmt.Fprintln(c.Stdout, clientURL.String())
	fmt.Fprintf(c.Stderr, "mcpverdict: recording %s; point your client at %s (Ctrl-C to stop)\n", capture.RedactURL(up), clientURL.String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		proxy.Close()
		return exitcode.Wrap(exitcode.Usage, err)
	case <-ctx.Done():
	}
	// Close the proxy first: it ends the SSE streams still open, recording
	// their aborts, so that Shutdown does not wait on them.
	closeErr := proxy.Close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdownCtx)
	return exitcode.Wrap(exitcode.Usage, closeErr)
}

func parseUpstream(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, exitcode.New(exitcode.Usage, "capture http needs --upstream URL, the server's MCP endpoint (for example http://127.0.0.1:3000/mcp)")
	}
	// The URL may hold credentials: a message quotes it redacted, or not at all.
	u, err := url.Parse(raw)
	if err != nil {
		return nil, exitcode.New(exitcode.Usage, "--upstream is not a URL; give the server's MCP endpoint, http:// or https://")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, exitcode.New(exitcode.Usage, "--upstream %s is not an http:// or https:// URL", capture.RedactURL(u))
	}
	return u, nil
}

func upstreamTLS(caFile string) (*tls.Config, error) {
	if caFile == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, exitcode.New(exitcode.Usage, "cannot read --upstream-ca: %v", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, exitcode.New(exitcode.Usage, "%s: no PEM certificate found; pass a CA certificate in PEM form", caFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// createTrace opens the trace file for writing, creating its directory.
// Close it with closeTrace (a deferred Close as well is harmless): a mapped
// trace is cut to the length of its lines on Close.
func createTrace(path string) (io.WriteCloser, error) {
	if path == "" {
		return nil, exitcode.New(exitcode.Usage, "capture needs -o TRACE, the trace file to write")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, exitcode.New(exitcode.Usage, "cannot create the directory of %s: %v", path, err)
	}
	f, err := os.Create(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, exitcode.New(exitcode.Usage, "cannot write trace %s: %v", path, err)
	}
	return capture.TraceFile(f), nil
}

// closeTrace stops the sequencer, then closes the file under it, and
// returns the first error of the two.
func closeTrace(w *trace.Writer, tf io.Closer) error {
	return errors.Join(w.Close(), tf.Close())
}
