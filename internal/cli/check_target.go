package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/capture"
	"github.com/mcpverdict/mcpverdict/internal/driver"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// target is the server check drives: a stdio command or an HTTP endpoint.
// record opens a recorded connection to it, hands it to use, and writes the
// trace to tracePath whatever happens.
type target interface {
	transport() string
	record(ctx context.Context, tracePath string, use func(driver.Conn) error) error
}

// stdioTarget runs the server command through the capture wrapper once per
// session, the driver on the client side of the wrapper's pipes.
type stdioTarget struct {
	argv []string
	env  []string
}

func (stdioTarget) transport() string { return "stdio" }

func (t stdioTarget) record(ctx context.Context, tracePath string, use func(driver.Conn) error) error {
	tf, err := createTrace(tracePath)
	if err != nil {
		return err
	}
	defer tf.Close()
	stderrLog, err := os.Create(tracePath + ".stderr")
	if err != nil {
		return exitcode.New(exitcode.Usage, "cannot write %s: %v", tracePath+".stderr", unwrapPath(err))
	}
	defer stderrLog.Close()
	w := trace.NewWriter(tf)
	defer w.Close()
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		status, err := capture.RunStdio(ctx, capture.StdioConfig{
			Command: t.argv, Env: t.env, Stdin: toServerR, Stdout: fromServerW, StderrLog: stderrLog, Recorder: w,
			CloseGrace: 2 * time.Second, TermGrace: 2 * time.Second,
		})
		fromServerW.Close()
		toServerR.Close()
		done <- serverEnd(status, err, tracePath)
	}()
	useErr := use(driver.NewStdioConn(toServerW, fromServerR))
	toServerW.Close()
	return joinSessionErrors(useErr, <-done)
}

// serverEnd says how the wrapped server ended, when that is news: it could
// not start, or it exited with a failure status of its own.
func serverEnd(status capture.ExitStatus, err error, tracePath string) error {
	if err != nil {
		// capture's advice names its own command line; check's is --server.
		msg := strings.TrimSuffix(err.Error(), "; check the command after --")
		return &serverError{err: fmt.Errorf("the server could not be started: %s; check --server", msg), notStarted: true}
	}
	if status.Code != 0 && status.Signal == "" {
		return &serverError{err: fmt.Errorf("the server exited with status %d (its stderr is in %s.stderr)", status.Code, tracePath)}
	}
	return nil
}

// serverError is how the server process ended, reported after what the
// driver saw of the session.
type serverError struct {
	err        error
	notStarted bool
}

func (e *serverError) Error() string { return e.err.Error() }
func (e *serverError) Unwrap() error { return e.err }

// joinSessionErrors puts what the driver saw first and the process's end
// second: "the server closed the connection; the server exited with status 1".
func joinSessionErrors(useErr, endErr error) error {
	var se *serverError
	if errors.As(endErr, &se) && se.notStarted {
		return endErr // what the driver saw of a server that never ran is noise
	}
	switch {
	case useErr == nil:
		return endErr
	case endErr == nil:
		return useErr
	}
	return fmt.Errorf("%w; %v", useErr, endErr)
}

// httpTarget records each session through its own recording proxy on a
// loopback port in front of the server's endpoint.
type httpTarget struct {
	upstream *url.URL
	// token is the bearer token to send (--auth-token); with one, each
	// session begins with the authorization probe.
	token string
}

func (httpTarget) transport() string { return "http" }

func (t httpTarget) record(ctx context.Context, tracePath string, use func(driver.Conn) error) error {
	return t.serve(tracePath, func(endpoint string) error {
		if t.token != "" {
			client := &http.Client{Transport: &http.Transport{Proxy: nil}}
			if _, err := driver.ProbeAuthorization(ctx, client, endpoint); err != nil {
				return exitcode.New(exitcode.Usage, "the authorization probe of %s failed: %v", t.upstream.Redacted(), err)
			}
		}
		return use(driver.NewHTTPConn(driver.HTTPOptions{URL: endpoint, BearerToken: t.token}))
	})
}

// serve runs the recording proxy for the length of use, handing it the
// proxy's endpoint URL.
func (t httpTarget) serve(tracePath string, use func(endpoint string) error) error {
	tf, err := createTrace(tracePath)
	if err != nil {
		return err
	}
	defer tf.Close()
	w := trace.NewWriter(tf)
	defer w.Close()
	proxy, err := capture.NewProxy(capture.ProxyConfig{Upstream: t.upstream, Recorder: w})
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		proxy.Close()
		return exitcode.New(exitcode.Usage, "cannot listen on loopback for the recording proxy: %v", err)
	}
	srv := &http.Server{Handler: proxy, ReadHeaderTimeout: 30 * time.Second}
	go srv.Serve(ln)
	endpoint := url.URL{Scheme: "http", Host: ln.Addr().String(), Path: t.upstream.Path}
	useErr := use(endpoint.String())
	closeErr := proxy.Close()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	return errors.Join(useErr, closeErr)
}

// dialTimeout bounds the check that something listens at --url.
const dialTimeout = 3 * time.Second

// reachable fails fast, naming the address, when nothing listens at the
// endpoint: the proxy would otherwise answer every request with 502.
func reachable(u *url.URL) error {
	addr := u.Host
	if u.Port() == "" {
		port := "80"
		if u.Scheme == "https" {
			port = "443"
		}
		addr = net.JoinHostPort(u.Hostname(), port)
	}
	conn, err := net.DialTimeout("tcp", addr, dialTimeout)
	if err != nil {
		return exitcode.New(exitcode.Usage, "nothing answers at %s (%s): %v", u.Redacted(), addr, unwrapNetError(err))
	}
	conn.Close()
	return nil
}

func unwrapNetError(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}

// driveStdio drives one stdio session into tracePath with the given driver
// options (contract lock records a server's tool list this way).
func (c *Command) driveStdio(ctx context.Context, argv []string, tracePath string, opts driver.Options) error {
	err := stdioTarget{argv: argv}.record(ctx, tracePath, func(conn driver.Conn) error {
		_, err := driver.Run(ctx, conn, opts)
		return err
	})
	if err != nil {
		return exitcode.New(exitcode.Usage, "could not drive the server: %v (trace: %s)", err, tracePath)
	}
	return nil
}
