package calibrate

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// goBuild builds a Go main package into dir and returns the binary.
func goBuild(t testing.TB, dir, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// goEverything is the Go SDK's conformance/everything-server, which passes
// the official suite, built from the module cache (go.mod pins the SDK).
const goEverything = "github.com/modelcontextprotocol/go-sdk/conformance/everything-server"

// startGoEverything runs the Go SDK's everything-server on a free loopback
// port and returns its endpoint. Stateful serves 2025-11-25 sessions (with
// session ids, so server requests work); stateless serves 2026-07-28.
func startGoEverything(t testing.TB, bin string, stateful bool) string {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(bin, "-http", addr, "-stateless="+strconv.FormatBool(!stateful))
	log, err := os.Create(filepath.Join(t.TempDir(), "go-everything.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the Go everything-server: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); log.Close() })
	if err := waitListening(addr, 30*time.Second); err != nil {
		t.Fatalf("the Go everything-server: %v", err)
	}
	return "http://" + addr + "/mcp"
}

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func waitListening(addr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("nothing listens on %s after %s", addr, timeout)
}
