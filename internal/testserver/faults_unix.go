//go:build unix

package testserver

import (
	"io"
	"os"
	"os/exec"
	"syscall"
)

func init() { Register("fault-escape", runEscape) }

// runEscape starts a grandchild in a session of its own, out of reach of
// signals to the server's process group, which keeps the server's stdout
// open after the server exits: the server itself exits 0 when stdin ends.
// Its first line names the grandchild as fault-stubborn's does; whoever
// runs it must kill the grandchild.
func runEscape() int {
	exe, err := os.Executable()
	if err != nil {
		return 2
	}
	child := exec.Command(exe)
	child.Env = append(os.Environ(), EnvVar+"=fault-stubborn-child")
	child.Stdout = os.Stdout
	child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := child.Start(); err != nil {
		return 2
	}
	writeNote(map[string]int{"grandchild": child.Process.Pid})
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}
