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

	// Stdin, Stdout and Stderr are the client's side of the wrapper.
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
}

// ExitStatus is how the wrapped server ended.
type ExitStatus struct {
	// Code is the exit code, or 128+signal number when a signal ended it.
	Code int
	// Signal names the signal that ended the server, if one did.
	Signal string
}

// RunStdio runs the server, forwards the client's stdio to it byte for byte
// while recording the session, and returns how the server ended.
func RunStdio(ctx context.Context, cfg StdioConfig) (ExitStatus, error) {
	return ExitStatus{}, errors.New("capture stdio: not implemented")
}
