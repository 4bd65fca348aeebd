package probe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/capture"
	"github.com/mcpverdict/mcpverdict/internal/driver"
	"github.com/mcpverdict/mcpverdict/internal/probe/sandbox"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// probeRevision is the protocol revision the probe asks for: the handshake
// every released server speaks.
const probeRevision = "2025-11-25"

// server is one server process under probe, started through the capture
// wrapper so that its session is recorded as a trace, with mcpverdict's
// own JSON-RPC client on the other end of the wrapper's pipes.
type server struct {
	client    *driver.Client
	toServer  *io.PipeWriter
	ended     chan error
	tracePath string
	// netLog is the sandbox's record of connection attempts, when the
	// server runs in a network sandbox.
	netLog   string
	stateDir string
	opts     *sessionOptions
	// initialize is the server's initialize result, as received.
	initialize json.RawMessage
}

// sessionOptions are what every server of one probe shares.
type sessionOptions struct {
	argv           func(stateDir string) []string
	env            func(stateDir string) []string
	cwd            func(stateDir string) string
	sandbox        *sandbox.Wrapper
	startupTimeout time.Duration
	callTimeout    time.Duration
}

// startServer starts the server over stateDir, recording to tracePath.
func startServer(ctx context.Context, o *sessionOptions, sandboxed bool, stateDir, tracePath string) (*server, error) {
	tf, err := os.Create(tracePath)
	if err != nil {
		return nil, err
	}
	stderrLog, err := os.Create(tracePath + ".stderr")
	if err != nil {
		tf.Close()
		return nil, err
	}
	s := &server{tracePath: tracePath, ended: make(chan error, 1), opts: o, stateDir: stateDir}
	argv := o.argv(stateDir)
	if o.sandbox != nil && sandboxed {
		// The sandbox opens its log from the server's working directory,
		// the state folder, where a relative path would name nothing.
		netLog, err := filepath.Abs(tracePath + ".net")
		if err != nil {
			tf.Close()
			stderrLog.Close()
			return nil, err
		}
		s.netLog = netLog
		argv = o.sandbox.Wrap(argv, s.netLog)
	}
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	s.toServer = toServerW
	rec := trace.NewWriter(tf)
	cfg := capture.StdioConfig{
		Command: argv, Env: o.env(stateDir), Dir: o.cwd(stateDir),
		Stdin: toServerR, Stdout: fromServerW, StderrLog: stderrLog, Recorder: rec,
		CloseGrace: 3 * time.Second, TermGrace: 2 * time.Second,
	}
	// The client sees the end of the server's output, then the trace is
	// closed before its file.
	go s.capture(ctx, cfg, fromServerW, toServerR, rec, tf, stderrLog)
	s.client = driver.NewClient(driver.NewStdioConn(toServerW, fromServerR))
	s.client.Handle = func(string, json.RawMessage) (any, *driver.RPCError) { return nil, nil }
	s.client.Start()
	return s, nil
}

// capture runs the server through the capture wrapper until it exits,
// closes the session's pipes and files in order, and reports how it ended.
func (s *server) capture(ctx context.Context, cfg capture.StdioConfig, closers ...io.Closer) {
	status, err := capture.RunStdio(ctx, cfg)
	for _, c := range closers {
		c.Close()
	}
	if err == nil && status.Code != 0 {
		err = fmt.Errorf("the server exited with status %d%s (see %s.stderr)", status.Code, signalNote(status), filepath.Base(s.tracePath))
	}
	s.ended <- err
}

func signalNote(st capture.ExitStatus) string {
	if st.Signal == "" {
		return ""
	}
	return " (" + st.Signal + ")"
}

// handshake initializes the session and lists every page of tools,
// returning each page's result exactly as received.
func (s *server) handshake(ctx context.Context) ([]json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.startupTimeout)
	defer cancel()
	res, err := s.client.Call(ctx, "initialize", map[string]any{
		"protocolVersion": probeRevision,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "mcpverdict-probe", "version": "1.0.0"},
	})
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", s.explain(err))
	}
	s.initialize = res
	if err := s.client.Notify("notifications/initialized", nil); err != nil {
		return nil, fmt.Errorf("notifications/initialized: %w", s.explain(err))
	}
	return s.listTools(ctx)
}

// maxToolPages bounds a server whose cursors never end.
const maxToolPages = 100

func (s *server) listTools(ctx context.Context) ([]json.RawMessage, error) {
	var pages []json.RawMessage
	var cursor string
	for range maxToolPages {
		var params map[string]any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		res, err := s.client.Call(ctx, "tools/list", params)
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", s.explain(err))
		}
		pages = append(pages, res)
		var page struct {
			NextCursor string `json:"nextCursor"`
		}
		if json.Unmarshal(res, &page) != nil || page.NextCursor == "" {
			return pages, nil
		}
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("tools/list: more than %d pages; the cursor never ends", maxToolPages)
}

// pings is how many round trips transit time is measured over: the
// fastest is the transit, the others include scheduling noise.
const pings = 3

// ping measures the connection's round trip: the fastest of a few pings.
func (s *server) ping(ctx context.Context) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.callTimeout)
	defer cancel()
	var best time.Duration
	for i := range pings {
		start := time.Now()
		if _, err := s.client.Call(ctx, "ping", nil); err != nil {
			return 0, err
		}
		if d := time.Since(start); i == 0 || d < best {
			best = d
		}
	}
	return best, nil
}

// CallOutcome is one tools/call as the client saw it.
type CallOutcome struct {
	// Sent and Received are when the request left and its answer came
	// back.
	Sent     time.Time `json:"-"`
	Received time.Time `json:"-"`
	// Error is "" for a successful call, "tool_error" for a result with
	// isError: true, "protocol_error" for a JSON-RPC error, "timeout" or
	// "closed" when no answer came.
	Error   string `json:"error,omitempty"`
	Message string `json:"message,omitempty"`
}

// Failed reports a call that did not succeed.
func (c CallOutcome) Failed() bool { return c.Error != "" }

// call sends one tools/call. ready, when set, is waited on right before
// the request is sent, so two calls can be released together.
func (s *server) call(ctx context.Context, tool string, args map[string]any, ready <-chan struct{}) CallOutcome {
	ctx, cancel := context.WithTimeout(ctx, s.opts.callTimeout)
	defer cancel()
	params := map[string]any{"name": tool, "arguments": args}
	if args == nil {
		params["arguments"] = map[string]any{}
	}
	if ready != nil {
		<-ready
	}
	out := CallOutcome{Sent: time.Now()}
	res, err := s.client.Call(ctx, "tools/call", params)
	out.Received = time.Now()
	switch {
	case err == nil:
		out.Error, out.Message = toolError(res)
	case errors.As(err, new(*driver.RPCError)):
		out.Error, out.Message = "protocol_error", err.Error()
	case errors.Is(err, context.DeadlineExceeded):
		out.Error, out.Message = "timeout", fmt.Sprintf("no answer within %s", s.opts.callTimeout)
	default:
		out.Error, out.Message = "closed", s.explain(err).Error()
	}
	return out
}

// toolError reads isError and the first text of a tools/call result.
func toolError(res json.RawMessage) (kind, msg string) {
	var r struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(res, &r) != nil || !r.IsError {
		return "", ""
	}
	if len(r.Content) > 0 {
		msg = r.Content[0].Text
	}
	return "tool_error", truncate(msg, 300)
}

// close ends the client's side and waits for the server to exit (the
// wrapper's grace periods bound the wait), so the state is at rest.
func (s *server) close() error {
	s.toServer.Close()
	return <-s.ended
}

// explain adds the server's exit to an error caused by its end.
func (s *server) explain(err error) error {
	if !errors.Is(err, driver.ErrClosed) {
		return err
	}
	select {
	case end := <-s.ended:
		s.ended <- end
		if end != nil {
			return fmt.Errorf("%w: %v", err, end)
		}
	case <-time.After(2 * time.Second):
	}
	return err
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
