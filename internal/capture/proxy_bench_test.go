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
// echo server over streamable HTTP, with SSE and with JSON responses, straight
// to it and through the recording proxy (its trace written to a file). Each
// iteration makes one direct and one proxied call, so that both meet the
// same machine load; it reports each path's p50 and p99 in microseconds, the
// p50 the proxy adds, and each path's msg/s (JSON-RPC messages, requests
// plus answers, one client carries a second). A third path, "untraced", is
// the proxy with a recorder that writes nothing: the difference between it
// and direct is the hop and the proxy's own work, between proxied and it the
// trace file's writes.
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
		b.Run(mode.name, func(b *testing.B) {
			up := echoUpstream(b, mode.opts, false)
			direct := newBenchClient(b, up.URL+"/mcp")
			untraced := newBenchClient(b, benchProxy(b, up.URL+"/mcp", false))
			proxied := newBenchClient(b, benchProxy(b, up.URL+"/mcp", true))
			var directTimes, untracedTimes, proxiedTimes []time.Duration
			for b.Loop() {
				directTimes = append(directTimes, direct.roundTrip(b))
				untracedTimes = append(untracedTimes, untraced.roundTrip(b))
				proxiedTimes = append(proxiedTimes, proxied.roundTrip(b))
			}
			d, u, p := summarize(directTimes), summarize(untracedTimes), summarize(proxiedTimes)
			d.report(b, "direct")
			u.report(b, "untraced")
			p.report(b, "proxied")
			b.ReportMetric(p.p50-d.p50, "added-p50-µs")
		})
	}
}

// benchProxy starts a proxy and returns its endpoint. Its trace goes to a
// file when traced is set, else nowhere.
func benchProxy(b *testing.B, upstream string, traced bool) string {
	up, err := url.Parse(upstream)
	if err != nil {
		b.Fatal(err)
	}
	var rec trace.Recorder = discardRecorder{}
	if traced {
		f, err := os.Create(filepath.Join(b.TempDir(), "bench.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		w := trace.NewWriter(f)
		b.Cleanup(func() { _ = w.Close(); _ = f.Close() })
		rec = w
	}
	p, err := NewProxy(ProxyConfig{Upstream: up, Recorder: rec})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(p)
	b.Cleanup(func() { _ = p.Close(); srv.Close() })
	return srv.URL + "/mcp"
}

// discardRecorder numbers events and keeps none.
type discardRecorder struct{}

func (discardRecorder) Record(trace.Event) (int64, error) { return 0, nil }

// benchClient is an initialized session that times tools/call round trips.
type benchClient struct{ c *mcpClient }

const benchCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"benchmark"}}}`

func newBenchClient(b *testing.B, endpoint string) *benchClient {
	c := newMCPClient(b, endpoint)
	c.post("initialize", initializeRequest)
	c.protocol = "2025-11-25"
	c.post("initialized", initializedNote)
	return &benchClient{c: c}
}

func (bc *benchClient) roundTrip(b *testing.B) time.Duration {
	start := time.Now()
	if resp := bc.c.post("call", benchCall); len(resp.messages()) != 1 {
		b.Fatalf("tools/call answered %q", resp.body)
	}
	return time.Since(start)
}

// latencies are one path's round-trip figures, in microseconds.
type latencies struct{ p50, p99, msgPerSec float64 }

func summarize(times []time.Duration) latencies {
	var total time.Duration
	for _, d := range times {
		total += d
	}
	slices.Sort(times)
	n := len(times)
	µs := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	return latencies{p50: µs(times[n/2]), p99: µs(times[n*99/100]), msgPerSec: float64(2*n) / total.Seconds()}
}

func (l latencies) report(b *testing.B, path string) {
	b.ReportMetric(l.p50, path+"-p50-µs")
	b.ReportMetric(l.p99, path+"-p99-µs")
	b.ReportMetric(l.msgPerSec, path+"-msg/s")
}
