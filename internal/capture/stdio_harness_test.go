package capture_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/capture"
	"github.com/mcpverdict/mcpverdict/internal/testserver"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

func TestMain(m *testing.M) {
	testserver.Main()
	os.Exit(m.Run())
}

// testTimeout bounds every wait on a peer, so a hung session fails the
// test instead of stalling the suite.
const testTimeout = 30 * time.Second

// fixture returns the argv and environment that run a testserver fixture.
func fixture(name string) (argv, env []string) {
	argv, entry := testserver.Command(name)
	return argv, append(os.Environ(), entry)
}

// clientLine is one line as the client saw it cross the wire.
type clientLine struct {
	dir  trace.Direction
	line []byte
}

// lineClient is the smallest stdio MCP client: it writes lines, reads lines
// until the response it waits for, and keeps every byte it received and
// every line in the order it saw them.
type lineClient struct {
	t        testing.TB
	toServer io.WriteCloser
	fromSrv  *bufio.Reader
	received bytes.Buffer
	seen     []clientLine
}

func newLineClient(t testing.TB, toServer io.WriteCloser, fromServer *os.File) *lineClient {
	fromServer.SetReadDeadline(time.Now().Add(testTimeout))
	return &lineClient{t: t, toServer: toServer, fromSrv: bufio.NewReader(fromServer)}
}

func (c *lineClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.toServer, line+"\n"); err != nil {
		c.t.Fatalf("client write: %v", err)
	}
	c.seen = append(c.seen, clientLine{trace.ClientToServer, []byte(line)})
}

// call sends a request and returns its response, keeping whatever the
// server sent before it.
func (c *lineClient) call(id int, method, params string) []byte {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	for {
		line := c.readLine()
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(line, &msg) == nil && msg.Method == "" && string(msg.ID) == fmt.Sprint(id) {
			return line
		}
	}
}

func (c *lineClient) readLine() []byte {
	c.t.Helper()
	line, err := c.fromSrv.ReadBytes('\n')
	c.received.Write(line)
	if err != nil {
		c.t.Fatalf("client read: %v (after %q)", err, line)
	}
	line = line[:len(line)-1]
	c.seen = append(c.seen, clientLine{trace.ServerToClient, line})
	return line
}

// finish closes the server's stdin and reads what is left until EOF.
func (c *lineClient) finish() {
	c.t.Helper()
	c.toServer.Close()
	rest, err := io.ReadAll(c.fromSrv)
	c.received.Write(rest)
	if err != nil {
		c.t.Fatalf("client read to the end: %v", err)
	}
}

// wrappedSession is RunStdio running in-process between a test client and
// a server process.
type wrappedSession struct {
	t         testing.TB
	client    *lineClient
	clientIn  *os.File // the wrapper's stdin, as the client writes it
	clientOut *os.File // the wrapper's stdout, as the client reads it
	tracePath string
	// stderr and stderrLog are read once RunStdio has returned, which
	// orders them after its writes.
	stderr    bytes.Buffer
	stderrLog bytes.Buffer
	signals   chan os.Signal
	cancel    context.CancelFunc
	done      chan runResult
}

type runResult struct {
	status capture.ExitStatus
	err    error
}

// startWrapped runs argv under RunStdio; tweak adjusts the config first.
func startWrapped(t testing.TB, argv, env []string, tweak func(*capture.StdioConfig)) *wrappedSession {
	t.Helper()
	s := &wrappedSession{t: t, tracePath: filepath.Join(t.TempDir(), "t.jsonl"), signals: make(chan os.Signal, 1), done: make(chan runResult, 1)}
	wrapperIn, clientIn := mustPipe(t)
	clientOut, wrapperOut := mustPipe(t)
	s.clientIn, s.clientOut = clientIn, clientOut
	s.client = newLineClient(t, clientIn, clientOut)
	cfg := capture.StdioConfig{
		Command: argv, Env: env, Stdin: wrapperIn, Stdout: wrapperOut, Stderr: &s.stderr, StderrLog: &s.stderrLog,
		CloseGrace: 2 * time.Second, TermGrace: 2 * time.Second, Signals: s.signals,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	ctx, cancel := context.WithCancel(t.Context())
	s.cancel = cancel
	go s.run(ctx, cfg, wrapperIn)
	return s
}

func (s *wrappedSession) run(ctx context.Context, cfg capture.StdioConfig, wrapperIn *os.File) {
	f, err := os.Create(s.tracePath)
	if err != nil {
		s.done <- runResult{err: err}
		return
	}
	w := trace.NewWriter(f)
	cfg.Recorder = w
	status, err := capture.RunStdio(ctx, cfg)
	s.done <- runResult{status, errors.Join(err, w.Close(), f.Close(), wrapperIn.Close())}
}

// wait returns how RunStdio ended and the trace it wrote.
func (s *wrappedSession) wait() (runResult, []trace.Event) {
	s.t.Helper()
	select {
	case r := <-s.done:
		events, err := trace.ReadFile(s.tracePath)
		if err != nil {
			s.t.Fatalf("read the trace back: %v", err)
		}
		return r, events
	case <-time.After(testTimeout):
		s.t.Fatalf("RunStdio did not return within %s", testTimeout)
		return runResult{}, nil
	}
}

func mustPipe(t testing.TB) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// runDirect runs argv with the client connected straight to it.
func runDirect(t testing.TB, argv, env []string, session func(*lineClient)) []byte {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	toServer, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := newLineClient(t, toServer, fromServer.(*os.File))
	session(c)
	c.finish()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("direct server: %v", err)
	}
	return c.received.Bytes()
}

// messages returns the message events of a trace as the client would have
// seen them.
func messages(events []trace.Event) []clientLine {
	var out []clientLine
	for _, ev := range events {
		if ev.IsMessage() {
			out = append(out, clientLine{ev.Direction, ev.Bytes()})
		}
	}
	return out
}

// lifecycle returns the lifecycle events of a trace.
func lifecycle(events []trace.Event) []trace.Event {
	var out []trace.Event
	for _, ev := range events {
		if ev.Kind == trace.KindLifecycle {
			out = append(out, ev)
		}
	}
	return out
}
