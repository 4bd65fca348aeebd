package peers

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// LoopbackPreload is the node --require script that makes a Node server
// listen on 127.0.0.1 only; server-everything's HTTP modes bind every
// interface otherwise.
func LoopbackPreload() string { return filepath.Join(Dir(), "loopback.cjs") }

// EverythingHTTP starts server-everything in streamable-HTTP mode on a free
// loopback port and returns its MCP endpoint (http://127.0.0.1:PORT/mcp).
// The server is killed when the test ends; its output is logged if the test
// failed.
func EverythingHTTP(t testing.TB) string {
	t.Helper()
	return everythingServing(t, "streamableHttp", "/mcp")
}

// EverythingSSE starts server-everything's HTTP with SSE transport (the
// 2024-11-05 transport: GET /sse, POST /message) on a free loopback port
// and returns the URL of its SSE endpoint.
func EverythingSSE(t testing.TB) string {
	t.Helper()
	return everythingServing(t, "sse", "/sse")
}

// everythingServing starts server-everything in one of its HTTP modes on a
// free loopback port and returns the URL of path there.
func everythingServing(t testing.TB, mode, path string) string {
	t.Helper()
	port := freeLoopbackPort(t)
	cmd := exec.Command(Require(t), "--require", LoopbackPreload(), Script("server-everything", "dist/index.js"), mode)
	cmd.Env = append(cmd.Environ(), "PORT="+strconv.Itoa(port))
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	StartListening(t, cmd, "server-everything-"+mode, addr)
	return "http://" + addr + path
}

// LegacySSEClient is the script of a 2024-11-05 client over HTTP with SSE
// (the TypeScript SDK's SSEClientTransport); its argument is the SSE URL.
func LegacySSEClient() string { return filepath.Join(Dir(), "legacy_sse_client.mjs") }

// FreeLoopbackAddr is a 127.0.0.1 address whose port is free right now, for
// a server told where to listen.
func FreeLoopbackAddr(t testing.TB) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(freeLoopbackPort(t)))
}

// StartListening starts a server process that listens on addr and waits
// until it does, its output logged and shown if the test fails; the process
// is killed when the test ends.
func StartListening(t testing.TB, cmd *exec.Cmd, name, addr string) {
	t.Helper()
	exited, log := startLogged(t, cmd, name)
	waitListening(t, name, addr, exited, log)
}

// startLogged starts cmd with its output in a log file, kills it when the
// test ends and shows the log if the test failed. The returned channel
// closes when the process exits.
func startLogged(t testing.TB, cmd *exec.Cmd, name string) (<-chan struct{}, *os.File) {
	t.Helper()
	// A file, not a pipe: the server must never block on output nobody reads.
	log, err := os.Create(filepath.Join(t.TempDir(), name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("%s output:\n%s", name, readLog(log))
		}
		log.Close()
	})
	return exited, log
}

// freeLoopbackPort asks the kernel for a port that is free right now.
func freeLoopbackPort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// waitListening waits until addr accepts connections, failing the test if
// the server exits first or takes longer than 30 s (node is slow to start
// on a loaded machine).
func waitListening(t testing.TB, name, addr string, exited <-chan struct{}, out *os.File) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			t.Fatalf("%s exited before listening on %s:\n%s", name, addr, readLog(out))
		default:
		}
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not listen on %s within 30s:\n%s", name, addr, readLog(out))
}

// readLog returns what the server wrote to its log so far.
func readLog(f *os.File) string {
	b, err := os.ReadFile(f.Name())
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	return string(b)
}
