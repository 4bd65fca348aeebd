package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// sandboxStageEnv marks the inner stage of the sandbox helper, the one
// already inside the new namespaces.
const sandboxStageEnv = "MCPVERDICT_SANDBOX_STAGE"

// checkSandbox runs the helper's --check: both stages, the network set up,
// no server.
func checkSandbox(self string) error {
	cmd := exec.Command(self, "probe", "sandbox", "--check")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("no network sandbox: %s", firstLineOf(msg))
	}
	return nil
}

// SandboxMain is `mcpverdict probe sandbox`: with --log FILE -- ARGV it runs
// ARGV in a fresh user and network namespace whose every connection
// attempt is written to FILE, and exits with ARGV's status; with --check it
// only proves the sandbox can be built. The outer stage creates the
// namespaces by re-running itself (a multi-threaded Go process cannot
// unshare a user namespace); the inner stage sets up the network, the sink
// and the server.
func SandboxMain(args []string) int {
	logPath, argv, check, err := parseSandboxArgs(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcpverdict probe sandbox: %v\n", err)
		return 2
	}
	if os.Getenv(sandboxStageEnv) != "inner" {
		return outerStage(args)
	}
	return innerStage(logPath, argv, check)
}

func parseSandboxArgs(args []string) (logPath string, argv []string, check bool, err error) {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--check":
			check = true
		case "--log":
			if i+1 >= len(args) {
				return "", nil, false, errors.New("--log needs a file")
			}
			i++
			logPath = args[i]
		case "--":
			argv = args[i+1:]
			i = len(args)
		default:
			return "", nil, false, fmt.Errorf("unknown argument %q", args[i])
		}
	}
	if !check && (logPath == "" || len(argv) == 0) {
		return "", nil, false, errors.New("usage: probe sandbox --log FILE -- COMMAND [ARGS...] | --check")
	}
	return logPath, argv, check, nil
}

// outerStage re-runs the helper in new user and network namespaces, with
// the host's uid and gid mapped to themselves (the server sees the same
// ids) and the capabilities the inner stage needs to configure the
// network, and passes on its exit status and the signals it receives.
func outerStage(args []string) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcpverdict probe sandbox: %v\n", err)
		return 2
	}
	cmd := exec.Command(self, append([]string{"probe", "sandbox"}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), sandboxStageEnv+"=inner")
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		AmbientCaps: []uintptr{unix.CAP_NET_ADMIN, unix.CAP_NET_RAW, unix.CAP_NET_BIND_SERVICE},
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "mcpverdict probe sandbox: cannot create user and network namespaces: %v\n", err)
		return 2
	}
	return waitForwarding(cmd)
}

// waitForwarding waits for cmd, passing on SIGTERM, SIGINT and SIGHUP, and
// returns its status as a shell would (128+signal).
func waitForwarding(cmd *exec.Cmd) int {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case sig := <-sigs:
			_ = cmd.Process.Signal(sig)
		case <-done:
			return statusOf(cmd.ProcessState)
		}
	}
}

func statusOf(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// innerStage configures loopback to answer for every address, starts the
// sink, then runs the server with no extra capabilities.
func innerStage(logPath string, argv []string, check bool) int {
	if err := routeEverythingToLoopback(); err != nil {
		fmt.Fprintf(os.Stderr, "mcpverdict probe sandbox: cannot configure the network namespace: %v\n", err)
		return 2
	}
	log := &netLogWriter{f: os.Stderr}
	if !check {
		f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mcpverdict probe sandbox: %v\n", err)
			return 2
		}
		defer f.Close()
		log.f = f
	}
	sink, err := startSink(log)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcpverdict probe sandbox: cannot start the connection sink: %v\n", err)
		return 2
	}
	defer sink.stop()
	if check {
		return 0
	}
	return runServer(argv)
}

// runServer starts the server from a thread whose ambient capabilities are
// cleared, so the server holds none of the helper's.
func runServer(argv []string) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = withoutEnv(os.Environ(), sandboxStageEnv)
	runtime.LockOSThread()
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	err := cmd.Start()
	runtime.UnlockOSThread()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcpverdict probe sandbox: cannot start %q: %v\n", argv[0], unwrapExecErr(err))
		return 127
	}
	return waitForwarding(cmd)
}

func withoutEnv(env []string, name string) []string {
	out := env[:0:0]
	for _, e := range env {
		if !strings.HasPrefix(e, name+"=") {
			out = append(out, e)
		}
	}
	return out
}

func unwrapExecErr(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
