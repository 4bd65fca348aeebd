package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// stdioRun is one wrapped server session in progress.
type stdioRun struct {
	cfg      StdioConfig
	srv      *serverProcess
	session  *stdioSession
	shutdown *shutdown

	clientEnd chan pumpEnd
	serverEnd chan pumpEnd
	stderrEnd chan error

	// client is set when the client's stdin ended before the server exited.
	client *pumpEnd
	// cancelled is why the context ended the session, if it did.
	cancelled error
	// forwarded lists the signals passed on to the server.
	forwarded []string
}

func newStdioRun(cfg StdioConfig, srv *serverProcess, session *stdioSession) *stdioRun {
	return &stdioRun{
		cfg: cfg, srv: srv, session: session, shutdown: newShutdown(srv, cfg),
		clientEnd: make(chan pumpEnd, 1), serverEnd: make(chan pumpEnd, 1), stderrEnd: make(chan error, 1),
	}
}

func (r *stdioRun) run(ctx context.Context) (ExitStatus, error) {
	exited := r.srv.wait()
	r.startPumps()
	status := r.superviseUntil(ctx, exited)
	server, stderrErr := r.awaitOutputs()
	r.endLeftovers()
	r.srv.closeStdin()
	r.stopClient()
	r.srv.closeOutputs()
	r.session.exit(status)
	r.session.end(r.outcome(server, status))
	return status, r.failures(stderrErr)
}

// startPumps starts copying both directions and the server's stderr. The
// client's side sends its end before closing the server's stdin, so that
// the end is known by the time the server exits because of it.
func (r *stdioRun) startPumps() {
	client := newLinePump(trace.ClientToServer, r.cfg.Stdin, r.srv.stdin, r.session, r.cfg.MaxLine)
	server := newLinePump(trace.ServerToClient, r.srv.stdout, r.cfg.Stdout, r.session, r.cfg.MaxLine)
	go func() {
		r.clientEnd <- client.run()
		r.srv.closeStdin()
	}()
	go func() {
		end := server.run()
		if c, ok := r.cfg.Stdout.(io.Closer); ok {
			c.Close()
		}
		r.serverEnd <- end
	}()
	go func() { r.stderrEnd <- copyStderr(r.srv.stderr, r.cfg.Stderr, r.cfg.StderrLog) }()
}

// superviseUntil forwards signals and runs the shutdown once the client's
// stdin ends or ctx is done, until the server exits.
func (r *stdioRun) superviseUntil(ctx context.Context, exited <-chan ExitStatus) ExitStatus {
	clientEnd, signals, done := r.clientEnd, r.cfg.Signals, ctx.Done()
	var due <-chan time.Time
	for {
		select {
		case status := <-exited:
			r.noteClientEnd()
			return status
		case end := <-clientEnd:
			clientEnd, r.client = nil, &end
			if due == nil {
				due = r.shutdown.due()
			}
		case <-due:
			due = r.shutdown.signalNext()
		case sig, ok := <-signals:
			signals = r.forward(sig, ok, signals)
		case <-done:
			done, r.cancelled = nil, context.Cause(ctx)
			r.srv.closeStdin()
			due = r.shutdown.signalNext()
		}
	}
}

// noteClientEnd picks up a client end sent just before the server exited,
// which select may not have chosen first.
func (r *stdioRun) noteClientEnd() {
	if r.client != nil {
		return
	}
	select {
	case end := <-r.clientEnd:
		r.client = &end
	default:
	}
}

// forward passes sig on to the server's process group; a closed channel
// stops forwarding.
func (r *stdioRun) forward(sig os.Signal, ok bool, signals <-chan os.Signal) <-chan os.Signal {
	if !ok {
		return nil
	}
	r.srv.signalGroup(sig)
	r.forwarded = append(r.forwarded, signalName(sig))
	return signals
}

// awaitOutputs waits for the server's stdout and stderr to close. Once the
// server has exited, whatever it left in its process group may hold them
// open: that gets TermGrace to finish, then SIGTERM, then SIGKILL, each
// TermGrace apart. A process outside the group that holds them even then
// is left to it: stderr is closed, and the blocked read of stdout abandoned.
func (r *stdioRun) awaitOutputs() (server pumpEnd, stderrErr error) {
	serverEnd, stderrEnd := r.serverEnd, r.stderrEnd
	steps := []func(){
		func() { r.srv.signalGroup(syscall.SIGTERM) },
		func() { r.srv.signalGroup(syscall.SIGKILL) },
		r.srv.closeOutputs,
	}
	for serverEnd != nil || stderrEnd != nil {
		select {
		case server = <-serverEnd:
			serverEnd = nil
		case stderrErr = <-stderrEnd:
			stderrEnd = nil
		case <-time.After(r.cfg.TermGrace):
			if len(steps) == 0 {
				return pumpEnd{readErr: errOutputHeld}, stderrErr
			}
			steps[0]()
			steps = steps[1:]
		}
	}
	return server, stderrErr
}

// endLeftovers ends the processes the server left in its group when it
// exited: one that let go of the server's stdout and stderr would outlive
// the session unseen. They get SIGTERM, and SIGKILL if they are still
// there TermGrace later.
func (r *stdioRun) endLeftovers() {
	if !r.srv.groupAlive() {
		return
	}
	r.srv.signalGroup(syscall.SIGTERM)
	deadline := time.Now().Add(r.cfg.TermGrace)
	for r.srv.groupAlive() {
		if time.Now().After(deadline) {
			r.srv.signalGroup(syscall.SIGKILL)
			return
		}
		time.Sleep(groupPollInterval)
	}
}

// groupPollInterval is how often endLeftovers looks for the group's end.
const groupPollInterval = 20 * time.Millisecond

// errOutputHeld ends a server stdout that outlived the server's process group.
var errOutputHeld = errors.New("the server's stdout stayed open after the server and its process group were gone (a process outside the group holds it); the wrapper stopped reading")

// stopClient ends the read of the client's stdin once the server is gone,
// where the reader takes a deadline; a read that cannot be interrupted is
// left behind, and the session records nothing after its end.
func (r *stdioRun) stopClient() {
	if r.client != nil {
		return
	}
	d, ok := r.cfg.Stdin.(interface{ SetReadDeadline(time.Time) error })
	if ok && d.SetReadDeadline(time.Now()) == nil {
		<-r.clientEnd
	}
}

func (r *stdioRun) failures(stderrErr error) error {
	var errs []error
	if r.session.err != nil {
		errs = append(errs, fmt.Errorf("the trace is incomplete: %w; check the space and permissions where it is written", r.session.err))
	}
	if stderrErr != nil {
		errs = append(errs, fmt.Errorf("cannot copy the server's stderr to its log: %w", stderrErr))
	}
	return errors.Join(errs...)
}
