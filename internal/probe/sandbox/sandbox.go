package sandbox

import (
	"bufio"
	"encoding/json"
	"os"
	"sync"
	"time"
)

// Wrapper runs each server in a fresh network namespace of its own, where
// every connection attempt (a DNS lookup, a TCP connect, a UDP datagram) is
// caught by a local sink and written to a log: the evidence for
// openWorldHint. It needs Linux user and network namespaces; elsewhere
// Available is false and the open-world claims are inconclusive.
type Wrapper struct {
	Self string
}

// Wrap returns the argv that runs argv inside the sandbox, logging its
// connection attempts to logPath.
func (s *Wrapper) Wrap(argv []string, logPath string) []string {
	return append([]string{s.Self, "probe", "sandbox", "--log", logPath, "--"}, argv...)
}

// NetAttempt is one connection attempt the sandbox caught.
type NetAttempt struct {
	// At is when the sink saw it (Unix nanoseconds); it places the attempt
	// before or after the first tools/call.
	At int64 `json:"at"`
	// Kind is dns (a lookup; Name and QType say what), tcp (a connect, To
	// is the address) or udp (a datagram other than DNS).
	Kind  string `json:"kind"`
	To    string `json:"to,omitempty"`
	Name  string `json:"name,omitempty"`
	QType string `json:"qtype,omitempty"`
}

// ReadNetLog reads the attempts a sandbox logged; a missing log holds none.
func ReadNetLog(path string) ([]NetAttempt, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []NetAttempt
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var a NetAttempt
		if json.Unmarshal(sc.Bytes(), &a) == nil {
			out = append(out, a)
		}
	}
	return out, sc.Err()
}

// netLogWriter appends attempts to the log as they happen, one line each.
type netLogWriter struct {
	mu sync.Mutex
	f  *os.File
}

func (w *netLogWriter) record(a NetAttempt) {
	a.At = time.Now().UnixNano()
	b, _ := json.Marshal(a)
	w.mu.Lock()
	defer w.mu.Unlock()
	_, _ = w.f.Write(append(b, '\n'))
}

var (
	sandboxOnce sync.Once
	sandboxErr  error
)

// Available reports, once per process, whether self can run a
// server in a network sandbox here, and why not.
func Available(self string) error {
	sandboxOnce.Do(func() { sandboxErr = checkSandbox(self) })
	return sandboxErr
}

// SandboxCheck reports whether self (an mcpverdict executable, or a test
// binary standing in for one) can run servers in the network sandbox on
// this machine, and if not, why.
func SandboxCheck(self string) error { return Available(self) }
