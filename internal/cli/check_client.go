package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/progress"
)

// runUserClient runs the user's own client against the server, recorded:
// over stdio the client is handed the wrapped server command in
// MCP_SERVER_COMMAND (mcpverdict capture ... stdio -- SERVER), over HTTP the
// recording proxy's URL in MCP_SERVER_URL.
func (c *Command) runUserClient(ctx context.Context, t target, f *checkFlags, p *progress.Progress) *session {
	s := &session{name: "session-client-" + t.transport()}
	s.trace = filepath.Join(f.outDir, s.name+".jsonl")
	argv, err := splitCommand(f.client)
	if err != nil || len(argv) == 0 {
		s.problem = exitcode.New(exitcode.Usage, "--client %q is not a command line: %v", f.client, err)
		return s
	}
	p.Step(s.name, "your client: "+f.client)
	defer p.Done(s.name)
	switch t := t.(type) {
	case stdioTarget:
		s.problem = c.clientOverStdio(ctx, argv, t, s.trace, p.Writer())
	case httpTarget:
		s.problem = t.serve(s.trace, func(endpoint string) error {
			return c.runClient(ctx, argv, "MCP_SERVER_URL="+endpoint, p.Writer())
		})
	}
	return s
}

func (c *Command) clientOverStdio(ctx context.Context, argv []string, t stdioTarget, tracePath string, stderr io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return exitcode.New(exitcode.Usage, "cannot find the mcpverdict binary to wrap the server: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(tracePath), 0o755); err != nil {
		return exitcode.New(exitcode.Usage, "cannot create %s: %v", filepath.Dir(tracePath), unwrapPath(err))
	}
	abs, _ := filepath.Abs(tracePath)
	wrapped := append([]string{exe, "capture", "-o", abs, "stdio", "--"}, t.argv...)
	return c.runClient(ctx, argv, "MCP_SERVER_COMMAND="+shellJoin(wrapped), stderr)
}

// runClient runs the user's client to its end. Its standard output goes to
// stderr with its own, so that stdout carries only the report.
func (c *Command) runClient(ctx context.Context, argv []string, env string, stderr io.Writer) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Stdin, stderr, stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		return fmt.Errorf("your client exited with status %d", exitErr.ExitCode())
	case err != nil:
		return exitcode.New(exitcode.Usage, "cannot run --client %q: %v", argv[0], err)
	}
	return nil
}

// shellJoin quotes words for a POSIX shell, so that a client can hand
// MCP_SERVER_COMMAND to sh -c or split it like one.
func shellJoin(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = shellQuote(w)
	}
	return strings.Join(quoted, " ")
}

func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
