package capture

import (
	"os"
	"strings"
	"syscall"
	"time"
)

// shutdown ends a server that outlives its stdin the way the MCP stdio
// transport prescribes: after CloseGrace a SIGTERM, after TermGrace more a
// SIGKILL, each to the server's whole process group.
type shutdown struct {
	srv   *serverProcess
	steps []shutdownStep
	sent  []string // what had to be sent, for the transport-close reason
}

type shutdownStep struct {
	wait time.Duration
	sig  os.Signal
}

func newShutdown(srv *serverProcess, cfg StdioConfig) *shutdown {
	return &shutdown{srv: srv, steps: []shutdownStep{
		{wait: cfg.CloseGrace, sig: syscall.SIGTERM},
		{wait: cfg.TermGrace, sig: syscall.SIGKILL},
	}}
}

// due fires when the next signal is due; it is nil when none is left.
func (s *shutdown) due() <-chan time.Time {
	if len(s.steps) == 0 {
		return nil
	}
	return time.After(s.steps[0].wait)
}

// signalNext sends the next signal now and returns when the one after is due.
func (s *shutdown) signalNext() <-chan time.Time {
	if len(s.steps) == 0 {
		return nil
	}
	step := s.steps[0]
	s.steps = s.steps[1:]
	s.srv.signalGroup(step.sig)
	s.sent = append(s.sent, signalName(step.sig)+" after "+step.wait.String())
	return s.due()
}

// describe says what shutdown had to do, or "" when closing stdin sufficed.
func (s *shutdown) describe() string {
	if len(s.sent) == 0 {
		return ""
	}
	return "the server did not exit when its stdin closed: the wrapper sent " + strings.Join(s.sent, ", then ")
}
