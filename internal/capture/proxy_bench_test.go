package capture

import (
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// BenchmarkProxyRoundTrip measures tools/call round trips against the Go
// echo server over streamable HTTP, straight to it and through the
// recording proxy (its trace written to a file), with SSE and with JSON
// responses. It reports the round trip's p50 and p99 in microseconds and
// msg/s, the JSON-RPC messages (requests plus answers) carried a second.
//
//	go test -run '^$' -bench ProxyRoundTrip ./internal/capture
func BenchmarkProxyRoundTrip(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts *mcp.StreamableHTTPOptions
	}{
		{"sse", nil},
		{"json", &mcp.StreamableHTTPOptions{JSONResponse: true}},
	} {
		up := echoUpstream(b, mode.opts, false)
		b.Run(mode.name+"/direct", func(b *testing.B) { benchRoundTrips(b, up.URL+"/mcp") })
		b.Run(mode.name+"/proxied", func(b *testing.B) { benchRoundTrips(b, benchProxy(b, up.URL+"/mcp")) })
	}
}

// benchProxy starts a proxy recording to a trace file and returns its
// endpoint.
func benchProxy(b *testing.B, upstream string) string {
	up, err := url.Parse(upstream)
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(filepath.Join(b.TempDir(), "bench.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	w := trace.NewWriter(f)
	p, err := NewProxy(ProxyConfig{Upstream: up, Recorder: w})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(p)
	b.Cleanup(func() {
		_ = p.Close()
		srv.Close()
		_ = w.Close()
		_ = f.Close()
	})
	return srv.URL + "/mcp"
}

func benchRoundTrips(b *testing.B, endpoint string) {
	c := newMCPClient(b, endpoint)
	c.post("initialize", initializeRequest)
	c.protocol = "2025-11-25"
	c.post("initialized", initializedNote)
	const call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"benchmark"}}}`
	var latencies []time.Duration
	start := time.Now()
	for b.Loop() {
		t0 := time.Now()
		if resp := c.post("call", call); len(resp.messages()) != 1 {
			b.Fatalf("tools/call answered %q", resp.body)
		}
		latencies = append(latencies, time.Since(t0))
	}
	elapsed := time.Since(start)
	slices.Sort(latencies)
	n := len(latencies)
	b.ReportMetric(float64(latencies[n/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(latencies[n*99/100].Nanoseconds())/1e3, "p99-µs")
	b.ReportMetric(float64(2*n)/elapsed.Seconds(), "msg/s")
}
