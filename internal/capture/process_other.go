//go:build !unix

package capture

import (
	"os"
	"os/exec"
)

// Without process groups the server alone is signalled, and only with the
// signals the platform can deliver (on Windows, a kill).

func startInOwnGroup(cmd *exec.Cmd) error { return cmd.Start() }

func (s *serverProcess) signalGroup(sig os.Signal) {
	if s.cmd.Process.Signal(sig) != nil {
		_ = s.cmd.Process.Kill()
	}
}

// groupAlive is false: there is no group to outlive the server.
func (s *serverProcess) groupAlive() bool { return false }

func exitStatusOf(ps *os.ProcessState) ExitStatus { return ExitStatus{Code: ps.ExitCode()} }

func signalName(sig os.Signal) string { return sig.String() }

func catchBrokenPipe() (stop func()) { return func() {} }
