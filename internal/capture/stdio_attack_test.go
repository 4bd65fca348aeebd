//go:build unix

package capture_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/capture"
	"github.com/mcpverdict/mcpverdict/internal/testserver"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Fixtures that attack the wrapper rather than speak MCP. They live here,
// not in testserver, because only these tests run them.
func init() {
	testserver.Register("attack-flood-stdout", runFloodStdout)
	testserver.Register("attack-flood-stderr", runFloodStderr)
	testserver.Register("attack-fork-exit", runForkExit)
}

const (
	// floodSize is how much each flood writes: far more than the line
	// limit the tests set, and than the heap bound they check.
	floodSize = 32 << 20
	// stderrFloodSize is the 100 MB a server writes to its stderr.
	stderrFloodSize = 100_000_000
	// testMaxLine is the MaxLine the flood tests set.
	testMaxLine = 64 << 10
	// floodNote is the message between the two stdout floods.
	floodNote = `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"between floods"}}`
	// holdPipesVar tells attack-fork-exit to leave its child the server's
	// stdout and stderr.
	holdPipesVar = "MCPVERDICT_TEST_CHILD_HOLDS_PIPES"
)

// attackFixture is fixture without the second a race-enabled test binary
// sleeps before it exits, which these tests would spend waiting.
func attackFixture(name string) (argv, env []string) {
	argv, env = fixture(name)
	return argv, append(env, "GORACE=atexit_sleep_ms=0")
}

// runFloodStdout writes floodSize bytes with no newline, ends that line,
// writes floodNote, then floods again and exits mid-line.
func runFloodStdout() int {
	copyPattern(os.Stdout, floodSize)
	os.Stdout.WriteString("\n" + floodNote + "\n")
	copyPattern(os.Stdout, floodSize)
	return 0
}

// runFloodStderr writes stderrFloodSize bytes to stderr, then floodNote to
// stdout, and exits when stdin ends.
func runFloodStderr() int {
	copyPattern(os.Stderr, stderrFloodSize)
	os.Stdout.WriteString(floodNote + "\n")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

func copyPattern(w io.Writer, n int64) {
	_, _ = io.Copy(w, &capture.PatternReader{Size: n})
}

// runForkExit starts a child that ignores SIGTERM and sleeps, names it as
// fault-stubborn does, and exits when stdin ends, leaving the child in its
// process group. The child holds the server's stdout and stderr when
// holdPipesVar is set, and /dev/null otherwise.
func runForkExit() int {
	exe, err := os.Executable()
	if err != nil {
		return 2
	}
	child := exec.Command(exe)
	child.Env = append(os.Environ(), testserver.EnvVar+"=fault-stubborn-child")
	if os.Getenv(holdPipesVar) != "" {
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
	}
	if err := child.Start(); err != nil {
		return 2
	}
	fmt.Printf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"grandchild":%d}}}`+"\n", child.Process.Pid)
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// TestStdioServerFloodingStdoutWithoutNewline: a line past MaxLine is
// forwarded whole but recorded as raw, cut to MaxLine, and the wrapper
// holds no more of it than that; the next line is recorded as usual, and a
// flood the server exits in is reported with its full length.
func TestStdioServerFloodingStdoutWithoutNewline(t *testing.T) {
	argv, env := attackFixture("attack-flood-stdout")
	heap := capture.WatchHeap()
	s := startWrapped(t, argv, env, func(cfg *capture.StdioConfig) { cfg.MaxLine = testMaxLine })
	received, err := io.Copy(io.Discard, s.clientOut)
	if err != nil {
		t.Fatalf("client read: %v", err)
	}
	r, events := s.wait()
	growth := heap.Growth()

	if want := int64(2*floodSize + len(floodNote) + 2); received != want {
		t.Errorf("the client received %d bytes; want all %d the server wrote", received, want)
	}
	if growth > 24<<20 {
		t.Errorf("the heap rose %d MiB during a %d MiB line: the wrapper holds what it should only forward", growth>>20, floodSize>>20)
	}
	if r.err != nil {
		t.Errorf("RunStdio: %v", r.err)
	}
	cut := patternText(testMaxLine)
	got := messages(events)
	if len(got) != 3 || string(got[0].line) != cut || string(got[1].line) != floodNote || string(got[2].line) != cut {
		t.Errorf("recorded %d messages; want the flood cut to %d bytes, the note, and the second flood cut likewise", len(got), testMaxLine)
	}
	for _, ev := range events {
		if ev.IsMessage() && ev.Payload == nil && ev.Raw == nil {
			t.Errorf("message seq %d is neither a payload nor raw text", ev.Seq)
		}
	}
	_, end := ending(t, events)
	assertAbort(t, end, trace.ServerToClient, fmt.Sprintf("middle of a message, %d bytes after the last newline", floodSize))
}

// patternText is the first n bytes of PatternReader's stream.
func patternText(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = capture.PatternByte(int64(i))
	}
	return string(b)
}

// TestStdioServerFloodingStderr: 100 MB on stderr reaches both the
// wrapper's stderr and the log beside the trace, whole and in order,
// without stalling stdout or filling the heap, and none of it goes into
// the trace.
func TestStdioServerFloodingStderr(t *testing.T) {
	argv, env := attackFixture("attack-flood-stderr")
	pass, log := &patternChecker{}, &patternChecker{}
	heap := capture.WatchHeap()
	s := startWrapped(t, argv, env, func(cfg *capture.StdioConfig) { cfg.Stderr, cfg.StderrLog = pass, log })
	if got := string(s.client.readLine()); got != floodNote {
		t.Errorf("after the stderr flood the client read %q; want the server's note", got)
	}
	s.client.finish()
	r, events := s.wait()
	growth := heap.Growth()

	for name, c := range map[string]*patternChecker{"the wrapper's stderr": pass, "the stderr log": log} {
		if c.n != stderrFloodSize || c.wrong {
			t.Errorf("%s got %d bytes (out of order: %v); want the server's %d, in order", name, c.n, c.wrong, stderrFloodSize)
		}
	}
	if growth > 24<<20 {
		t.Errorf("the heap rose %d MiB while 100 MB of stderr went through", growth>>20)
	}
	if info, err := os.Stat(s.tracePath); err != nil || info.Size() > 1<<20 {
		t.Errorf("the trace is %d bytes (%v); want the session's few events, no stderr", info.Size(), err)
	}
	if r.err != nil {
		t.Errorf("RunStdio: %v", r.err)
	}
	if _, end := ending(t, events); end.Event != trace.TransportClose {
		t.Errorf("last event %+v; want transport-close", end)
	}
}

// patternChecker counts what it is written and notes whether it all was
// PatternReader's stream, keeping none of it. Its fields are read once
// RunStdio has returned.
type patternChecker struct {
	n     int64
	wrong bool
}

// patternWindow holds PatternReader's stream from every offset in its
// period on for a whole piece, so that a piece is checked with one compare.
var patternWindow = []byte(patternText(checkPiece + capture.PatternPeriod))

// checkPiece is the most of a write one compare checks.
const checkPiece = 64 << 10

func (c *patternChecker) Write(p []byte) (int, error) {
	for rest := p; len(rest) > 0; {
		piece := rest[:min(len(rest), checkPiece)]
		at := int(c.n % capture.PatternPeriod)
		c.wrong = c.wrong || !bytes.Equal(piece, patternWindow[at:at+len(piece)])
		c.n += int64(len(piece))
		rest = rest[len(piece):]
	}
	return len(p), nil
}

// TestStdioServerThatForksAndExits: a server that exits leaving a child in
// its process group, a child that ignores SIGTERM, leaves nothing running
// once RunStdio returns, whether the child holds the server's pipes or has
// let go of them.
func TestStdioServerThatForksAndExits(t *testing.T) {
	for _, holds := range []bool{true, false} {
		t.Run(fmt.Sprintf("child holds the pipes=%v", holds), func(t *testing.T) {
			argv, env := attackFixture("attack-fork-exit")
			if holds {
				env = append(env, holdPipesVar+"=1")
			}
			s := startWrapped(t, argv, env, func(cfg *capture.StdioConfig) { cfg.TermGrace = 150 * time.Millisecond })
			child := grandchildPid(t, s.client.readLine())
			t.Cleanup(func() { syscall.Kill(child, syscall.SIGKILL) })
			start := time.Now()
			s.clientIn.Close()
			_, _ = io.Copy(io.Discard, s.clientOut)
			r, events := s.wait()

			if elapsed := time.Since(start); elapsed > 5*time.Second {
				t.Errorf("RunStdio took %s to return after the client closed", elapsed)
			}
			if r.status != (capture.ExitStatus{}) || r.err != nil {
				t.Errorf("RunStdio = %+v, %v; want the server's exit 0", r.status, r.err)
			}
			if _, end := ending(t, events); end.Event != trace.TransportClose {
				t.Errorf("last event %+v; want transport-close", end)
			}
			waitGone(t, child)
		})
	}
}
