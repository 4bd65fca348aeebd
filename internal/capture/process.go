package capture

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
)

// serverProcess is the wrapped server and the wrapper's ends of its pipes.
//
// The pipes are made here rather than by exec.Cmd's StdoutPipe and friends
// because Cmd.Wait closes those as soon as the process exits, which would
// lose output still in the pipe; and because the server's children may keep
// them open after it exits.
type serverProcess struct {
	cmd    *exec.Cmd
	stdin  *os.File // write end
	stdout *os.File // read end
	stderr *os.File // read end

	closeStdinOnce sync.Once
}

// startServer starts cfg.Command in a process group of its own with its
// standard streams connected to new pipes.
func startServer(cfg StdioConfig) (*serverProcess, error) {
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Env, cmd.Dir = cfg.Env, cfg.Dir
	srv := &serverProcess{cmd: cmd}
	childEnds, err := srv.makePipes()
	if err == nil {
		err = startInOwnGroup(cmd)
	}
	closeAll(childEnds...)
	if err != nil {
		closeAll(srv.stdin, srv.stdout, srv.stderr)
		return nil, fmt.Errorf("cannot start server %q: %w; check the command after --", cfg.Command[0], rootCause(err))
	}
	return srv, nil
}

// makePipes connects the command's stdin, stdout and stderr to new pipes,
// keeps the wrapper's ends and returns the child's, which the wrapper must
// close once the child has them.
func (s *serverProcess) makePipes() (childEnds []*os.File, err error) {
	var inR, outW, errW *os.File
	// The message pipes are blocking: a thread blocked in read(2) or
	// write(2) is woken by the kernel itself, where the runtime's poller
	// adds a scheduler hop to every message, a cost BenchmarkStdioEcho
	// sees. The price: Close cannot interrupt a read or write under way.
	if inR, s.stdin, err = blockingPipe(); err != nil {
		return nil, err
	}
	if s.stdout, outW, err = blockingPipe(); err != nil {
		return []*os.File{inR}, err
	}
	if s.stderr, errW, err = os.Pipe(); err != nil {
		return []*os.File{inR, outW}, err
	}
	s.cmd.Stdin, s.cmd.Stdout, s.cmd.Stderr = inR, outW, errW
	return []*os.File{inR, outW, errW}, nil
}

// wait reports the server's exit status on the returned channel.
func (s *serverProcess) wait() <-chan ExitStatus {
	exited := make(chan ExitStatus, 1)
	go func() {
		// Wait's error says the same as ProcessState, which is what counts.
		_ = s.cmd.Wait()
		exited <- exitStatusOf(s.cmd.ProcessState)
	}()
	return exited
}

// closeStdin tells the server the client is done, as its stdin's EOF.
func (s *serverProcess) closeStdin() {
	s.closeStdinOnce.Do(func() { s.stdin.Close() })
}

// closeOutputs ends the reads of the server's stdout and stderr.
func (s *serverProcess) closeOutputs() { closeAll(s.stdout, s.stderr) }

func closeAll(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

// rootCause drops the wrapping layers of a start error ("exec: \"x\": ",
// "fork/exec /x: "), since the message names the command itself.
func rootCause(err error) error {
	for {
		inner := errors.Unwrap(err)
		if inner == nil {
			return err
		}
		err = inner
	}
}
