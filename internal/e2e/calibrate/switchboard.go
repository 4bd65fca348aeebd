package calibrate

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// switchboard routes the suite's requests to the recording proxy of the
// scenario running now: one `mcpverdict capture http` process per scenario,
// each writing that scenario's own trace. The suite announces each scenario
// (see scenario.cjs) and waits while the switchboard starts its proxy. A
// request of a session an earlier scenario opened (the standalone GET stream
// its client reopens, a late DELETE) goes to that scenario's proxy, so that
// every session stays whole in one trace; the proxies all run to the end.
type switchboard struct {
	mcpverdict string // the mcpverdict binary
	upstream   string // the server's MCP endpoint
	dir        string // where traces and logs go

	// errorLog takes what the reverse proxy has to say (a stream cut when
	// its scenario's recorder stopped), away from the test's output.
	errorLog *log.Logger

	mu       sync.Mutex
	current  *recorder
	all      []*recorder
	sessions map[string]*recorder // mcp-session-id -> the recorder of the scenario that opened it
	traces   map[string]string    // scenario -> trace
}

// recorder is one scenario's capture process and the reverse proxy to it.
type recorder struct {
	scenario string
	cmd      *exec.Cmd
	proxy    *httputil.ReverseProxy
}

func newSwitchboard(mcpverdict, upstream, dir string, errorLog io.Writer) *switchboard {
	return &switchboard{
		mcpverdict: mcpverdict, upstream: upstream, dir: dir, traces: map[string]string{}, sessions: map[string]*recorder{},
		errorLog: log.New(errorLog, "switchboard: ", 0),
	}
}

func (s *switchboard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	cur := s.current
	if owner, ok := s.sessions[r.Header.Get("Mcp-Session-Id")]; ok {
		cur = owner
	}
	s.mu.Unlock()
	if cur == nil {
		http.Error(w, "calibration: no scenario is running", http.StatusServiceUnavailable)
		return
	}
	// Full duplex: the reverse proxy flushes an event stream's header at
	// once, and half duplex net/http's server would then drain and close
	// the request body under the transport still sending it, which took
	// the read error for a broken request and cut the connection under the
	// response (the suite's client saw no result).
	_ = http.NewResponseController(w).EnableFullDuplex()
	cur.proxy.ServeHTTP(w, r)
}

// start puts a new scenario's recorder in front of the server.
func (s *switchboard) start(scenario string) error {
	trace := filepath.Join(s.dir, fmt.Sprintf("%02d-%s.jsonl", len(s.traces)+1, scenario))
	next, err := s.launch(scenario, trace)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.current = next
	s.all = append(s.all, next)
	s.traces[scenario] = trace
	s.mu.Unlock()
	return nil
}

// bind ties a session the server just named to the recorder that carried
// its initialize.
func (s *switchboard) bind(sessionID string, rec *recorder) {
	if sessionID == "" {
		return
	}
	s.mu.Lock()
	if _, ok := s.sessions[sessionID]; !ok {
		s.sessions[sessionID] = rec
	}
	s.mu.Unlock()
}

func (s *switchboard) launch(scenario, trace string) (*recorder, error) {
	logFile, err := os.Create(trace + ".log")
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(s.mcpverdict, "capture", "-o", trace, "http", "--upstream", s.upstream, "--listen", "127.0.0.1:0")
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting capture http for %s: %w", scenario, err)
	}
	line, err := firstLine(stdout, 30*time.Second)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("capture http for %s printed no URL: %w", scenario, err)
	}
	endpoint, err := url.Parse(line)
	if err != nil {
		return nil, err
	}
	target := &url.URL{Scheme: endpoint.Scheme, Host: endpoint.Host}
	return s.newRecorder(scenario, cmd, target), nil
}

// newRecorder puts a reverse proxy to target in front of a scenario's
// capture process.
func (s *switchboard) newRecorder(scenario string, cmd *exec.Cmd, target *url.URL) *recorder {
	rec := &recorder{scenario: scenario, cmd: cmd}
	rec.proxy = &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(target) },
		FlushInterval: -1, // SSE frames pass as they come
		ErrorLog:      s.errorLog,
		ModifyResponse: func(resp *http.Response) error {
			s.bind(resp.Header.Get("Mcp-Session-Id"), rec)
			return nil
		},
	}
	return rec
}

// firstLine reads the URL capture http prints when it listens.
func firstLine(r interface{ Read([]byte) (int, error) }, timeout time.Duration) (string, error) {
	lines := make(chan string, 1)
	errs := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(r)
		if sc.Scan() {
			lines <- sc.Text()
			return
		}
		errs <- fmt.Errorf("no output: %v", sc.Err())
	}()
	select {
	case l := <-lines:
		return l, nil
	case err := <-errs:
		return "", err
	case <-time.After(timeout):
		return "", fmt.Errorf("nothing within %s", timeout)
	}
}

// stop interrupts the capture process, which closes its trace.
func (r *recorder) stop() {
	_ = r.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() { r.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		r.cmd.Process.Kill()
		<-done
	}
}

// finish stops every recorder and returns every scenario's trace.
func (s *switchboard) finish() map[string]string {
	s.mu.Lock()
	all := s.all
	s.current, s.all = nil, nil
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, r := range all {
		wg.Add(1)
		go func() { defer wg.Done(); r.stop() }()
	}
	wg.Wait()
	return s.traces
}
