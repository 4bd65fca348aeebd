//go:build unix

package capture

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// startInOwnGroup starts cmd as the leader of a new process group, so that
// the shutdown signals reach whatever the server started (npx starts node)
// and a terminal's Ctrl-C reaches only the wrapper, which forwards it.
func startInOwnGroup(cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd.Start()
}

// signalGroup sends sig to every process in the server's group. A group
// that is already gone is not an error.
func (s *serverProcess) signalGroup(sig os.Signal) {
	num, ok := sig.(syscall.Signal)
	if !ok {
		return
	}
	if err := syscall.Kill(-s.cmd.Process.Pid, num); err != nil && !errors.Is(err, syscall.ESRCH) {
		// The leader is reaped but members may remain; fall back to it alone.
		_ = s.cmd.Process.Signal(sig)
	}
}

// groupAlive reports whether a process of the server's group still runs.
// A zombie does not count: it is over, and where no init reaps orphans
// (a container's), it would be there for good.
func (s *serverProcess) groupAlive() bool {
	err := syscall.Kill(-s.cmd.Process.Pid, 0)
	return !errors.Is(err, syscall.ESRCH) && !onlyZombiesIn(s.cmd.Process.Pid)
}

func exitStatusOf(ps *os.ProcessState) ExitStatus {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ExitStatus{Code: 128 + int(ws.Signal()), Signal: signalName(ws.Signal())}
	}
	return ExitStatus{Code: ps.ExitCode()}
}

func signalName(sig os.Signal) string {
	if num, ok := sig.(syscall.Signal); ok {
		if name := unix.SignalName(num); name != "" {
			return name
		}
	}
	return sig.String()
}

// catchBrokenPipe makes a write to a client that stopped reading fail with
// EPIPE, to be recorded, instead of killing the wrapper: Go kills a program
// that writes to a broken stdout unless SIGPIPE is being notified. Notify,
// unlike Ignore, is not inherited by the server. It returns the undo.
func catchBrokenPipe() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	return func() { signal.Stop(ch) }
}
