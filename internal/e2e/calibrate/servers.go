package calibrate

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
)

// goBuild builds a Go main package into dir and returns the binary.
func goBuild(t testing.TB, dir, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	// -pgo=off: mcpverdict's profile would rebuild the standard library
	// for this one binary, and changes no behaviour.
	cmd := exec.Command("go", "build", "-pgo=off", "-o", bin, pkg)
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
	addr := peers.FreeLoopbackAddr(t)
	cmd := exec.Command(bin, "-http", addr, "-stateless="+strconv.FormatBool(!stateful))
	peers.StartListening(t, cmd, "the Go everything-server", addr)
	return "http://" + addr + "/mcp"
}
