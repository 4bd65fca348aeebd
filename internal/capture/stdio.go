package capture

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// StdioConfig configures the stdio wrapper.
type StdioConfig struct {
	// Command is the server program and its arguments.
	Command []string
	// Env is the server's environment; nil inherits the wrapper's.
	Env []string
	// Dir is the server's working directory; empty inherits the wrapper's.
	Dir string

	// Stdin, Stdout and Stderr are the client's side of the wrapper. Stdout
	// is closed, when it is an io.Closer, as soon as the server's stdout
	// closes, so the client sees the end of the stream when it would without
	// the wrapper. Nil Stdin reads nothing; nil Stdout and Stderr discard.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// StderrLog, when set, receives a copy of everything the server writes
	// to stderr (the TRACE.stderr file).
	StderrLog io.Writer

	// Recorder receives every event of the session.
	Recorder trace.Recorder

	// CloseGrace is how long the server has to exit after its stdin closes
	// before it is sent SIGTERM; TermGrace is how long after SIGTERM before
	// SIGKILL. Zero means the defaults (5 s and 5 s).
	CloseGrace time.Duration
	TermGrace  time.Duration

	// Signals, when set, are forwarded to the server as they arrive.
	Signals <-chan os.Signal

	// MaxLine is the longest line, in bytes, that is recorded whole; zero
	// means DefaultMaxLine. A longer line is forwarded unchanged, and
	// recorded as raw, cut to its first MaxLine bytes (fewer rather than
	// split a UTF-8 character).
	MaxLine int
}

// DefaultMaxLine is the MaxLine of a config that sets none: the proxy's
// DefaultMaxMessage, so that both transports record a message of the same
// size whole.
const DefaultMaxLine = DefaultMaxMessage

// DefaultGrace is the CloseGrace and TermGrace of a config that sets none.
const DefaultGrace = 5 * time.Second

// ExitStatus is how the wrapped server ended.
type ExitStatus struct {
	// Code is the exit code, or 128+signal number when a signal ended it.
	Code int
	// Signal names the signal that ended the server, if one did.
	Signal string
}

// startFailedCode is the status RunStdio reports for a server that never
// ran: the usage status, since the command line named something unrunnable.
const startFailedCode = 2

// RunStdio runs the server, forwards the client's stdio to it byte for byte
// while recording the session, and returns how the server ended.
//
// The trace holds transport-open, every newline-delimited message in the
// order it was forwarded, process-exit, and then transport-close when the
// client closed its stdin and the server then exited, or transport-abort
// with a reason otherwise. Lines holding only whitespace carry no message
// and are forwarded without an event; a line longer than MaxLine is
// recorded as raw, cut. Once the server has exited, whatever it left
// running in its process group is ended too (SIGTERM, then SIGKILL after
// TermGrace), so that no process outlives the session. The error reports a
// server that could not start or a trace or stderr log that could not be
// written; the session itself is never interrupted by a recording failure.
func RunStdio(ctx context.Context, cfg StdioConfig) (ExitStatus, error) {
	if len(cfg.Command) == 0 {
		return ExitStatus{Code: startFailedCode}, errors.New("capture stdio needs the server command after --")
	}
	cfg = cfg.withDefaults()
	session := &stdioSession{rec: cfg.Recorder}
	srv, err := startServer(cfg)
	if err != nil {
		session.end(startFailed(err))
		return ExitStatus{Code: startFailedCode}, errors.Join(err, session.err)
	}
	defer catchBrokenPipe()()
	session.open()
	return newStdioRun(cfg, srv, session).run(ctx)
}

func (cfg StdioConfig) withDefaults() StdioConfig {
	if cfg.Stdin == nil {
		cfg.Stdin = eofReader{}
	}
	if cfg.Stdout == nil {
		cfg.Stdout = io.Discard
	}
	if cfg.Stderr == nil {
		cfg.Stderr = io.Discard
	}
	if cfg.CloseGrace <= 0 {
		cfg.CloseGrace = DefaultGrace
	}
	if cfg.TermGrace <= 0 {
		cfg.TermGrace = DefaultGrace
	}
	if cfg.MaxLine <= 0 {
		cfg.MaxLine = DefaultMaxLine
	}
	return cfg
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
