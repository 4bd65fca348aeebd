package recorded

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
)

// legacySSEName is the corpus name of the recorded HTTP with SSE session.
const legacySSEName = "server-everything-sse-2024-11-05"

// TestRecordLegacySSE re-records a 2024-11-05 session over HTTP with SSE
// when MCPVERDICT_RECORD=1. The driver speaks streamable HTTP only, so the
// client is the TypeScript SDK's SSEClientTransport (peers.LegacySSEClient)
// and mcpverdict's capture proxy sits between it and server-everything's
// sse mode.
func TestRecordLegacySSE(t *testing.T) {
	if os.Getenv(recordEnv) != "1" {
		t.Skip("set " + recordEnv + "=1 to re-record corpus/recorded")
	}
	work := t.TempDir()
	bin := buildMCPVerdict(t, work)
	upstream := peers.EverythingSSE(t)
	listen := peers.FreeLoopbackAddr(t)
	tracePath := filepath.Join(work, "session.jsonl")
	proxy := exec.Command(bin, "capture", "-o", tracePath, "http", "--upstream", upstream, "--listen", listen)
	proxyLog, err := os.Create(filepath.Join(work, "capture.log"))
	if err != nil {
		t.Fatal(err)
	}
	proxy.Stdout, proxy.Stderr = proxyLog, proxyLog
	if err := proxy.Start(); err != nil {
		t.Fatal(err)
	}
	waitDial(t, listen)
	client := exec.Command(peers.Require(t), peers.LegacySSEClient(), "http://"+listen+"/sse")
	if out, err := client.CombinedOutput(); err != nil {
		proxy.Process.Kill()
		t.Fatalf("legacy SSE client: %v\n%s", err, out)
	}
	// capture finishes its trace when interrupted, as after Ctrl-C.
	if err := proxy.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := proxy.Wait(); err != nil {
		log, _ := os.ReadFile(proxyLog.Name())
		t.Fatalf("capture: %v\n%s", err, log)
	}
	events, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(corpusDir(), legacySSEName+".jsonl")
	if err := os.WriteFile(path, append(header(path), events...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitDial waits until something listens on addr.
func waitDial(t *testing.T, addr string) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("capture is not listening on %s after 10s", addr)
}
