package capture_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/cli"
	"github.com/mcpverdict/mcpverdict/internal/testserver"
)

// The benchmarks drive a fixture with raw JSON-RPC lines, straight and
// through `mcpverdict capture stdio` running as a process of its own (this
// test binary re-run as the "capture-cli" fixture), so the figures include
// every pipe hop a real client pays for. scripts/bench-capture runs them and
// prints direct and wrapped side by side.
//
// Metrics: p50-us and p99-us, the round trip of one tools/call, from one
// loop that alternates blocks of direct and wrapped calls so that both meet
// the same load (reported per path: direct-p50-us, wrapped-p50-us); msg/s, the
// messages carried per second with inFlight calls outstanding, requests and
// responses both counted, from a loop that alternates rounds of calls the
// same way; cpu-us/op, the CPU time of the peer process per call: the
// server's alone when direct, the wrapper's and the server's when wrapped,
// so the difference is what the wrapper spends.

const (
	wrapEnv  = "MCPVERDICT_BENCH_WRAP"  // the fixture capture-cli wraps
	traceEnv = "MCPVERDICT_BENCH_TRACE" // where capture-cli writes its trace
	// baselineEnv, when set, names another mcpverdict binary (an older
	// build, or a script that runs one) whose wrapper is a third path,
	// "baseline": its latency blocks alternate with the other two in the
	// same loop, an A/B of two wrappers under the same machine load.
	baselineEnv = "MCPVERDICT_BENCH_BASELINE"
	// inFlight bounds the calls the throughput client keeps outstanding, as
	// a busy client would, without flooding the server's goroutines.
	inFlight = 64
)

func init() { testserver.Register("capture-cli", runCaptureCLI) }

// runCaptureCLI is `mcpverdict capture -o $TRACE stdio -- <fixture $WRAP>`.
func runCaptureCLI() int {
	inner := os.Getenv(wrapEnv)
	argv, _ := testserver.Command(inner)
	os.Setenv(testserver.EnvVar, inner) // the server it starts becomes the inner fixture
	args := append([]string{"capture", "-o", os.Getenv(traceEnv), "stdio", "--"}, argv...)
	return (&cli.Command{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}).Main(args)
}

// benchServer is a fixture the benchmarks drive.
type benchServer struct {
	fixture  string
	mcp      bool // expects notifications/initialized after initialize
	exitCode int  // its status once stdin closes
}

var (
	// echoServer is a real MCP server (the Go SDK) with a trivial tool.
	echoServer = benchServer{fixture: "echo", mcp: true}
	// catServer copies each line back and does nothing else, which leaves
	// the wrapper's own cost in plain view.
	catServer = benchServer{fixture: "fault-cat-exit7", exitCode: 7}
)

func BenchmarkStdioEcho(b *testing.B) { benchStdio(b, echoServer) }

func BenchmarkStdioCat(b *testing.B) { benchStdio(b, catServer) }

func benchStdio(b *testing.B, srv benchServer) {
	b.Run("latency", func(b *testing.B) { benchLatency(b, srv) })
	b.Run("throughput", func(b *testing.B) { benchThroughput(b, srv) })
}

// benchModes lists the paths measured: direct, wrapped, and baseline when
// baselineEnv names a binary.
func benchModes() []string {
	if os.Getenv(baselineEnv) != "" {
		return []string{"direct", "wrapped", "baseline"}
	}
	return []string{"direct", "wrapped"}
}

// startPeers starts srv once on every path of benchModes, in that order,
// and returns each with its path's name.
func startPeers(b *testing.B, srv benchServer) ([]*benchPeer, map[*benchPeer]string) {
	names := map[*benchPeer]string{}
	var peers []*benchPeer
	for _, mode := range benchModes() {
		p := startBenchPeer(b, srv, mode)
		names[p] = mode
		peers = append(peers, p)
	}
	return peers, names
}

// latencyBlock is how many sequential calls benchLatency makes on one path
// before it turns to the other.
//
// Alternating call by call would make every call a cold one: each process
// would sleep through the other path's call, and waking it costs the direct
// cat fixture more than its whole round trip, which shrinks the difference
// the wrapper makes. In blocks, one
// call in latencyBlock is cold, and both paths still meet the same load.
const latencyBlock = 100

// benchLatency times sequential calls, alternating in blocks between the
// server straight and the server wrapped, so that both paths meet the same
// machine load, and reports each path's median and 99th percentile round
// trip and its process's CPU time per call ("direct-p50-us",
// "wrapped-p50-us", ...). b.N calls go each way.
func benchLatency(b *testing.B, srv benchServer) {
	peers, names := startPeers(b, srv)
	times := map[*benchPeer][]time.Duration{}
	b.ResetTimer()
	for first := 1; first <= b.N; first += latencyBlock {
		for _, p := range peers {
			for id := first; id < first+latencyBlock && id <= b.N; id++ {
				start := time.Now()
				_ = p.write(id) // a failed write shows as the read's EOF
				p.read()
				times[p] = append(times[p], time.Since(start))
			}
		}
	}
	for p, name := range names {
		rtts := times[p]
		slices.Sort(rtts)
		b.ReportMetric(percentile(rtts, 50), name+"-p50-us")
		b.ReportMetric(percentile(rtts, 99), name+"-p99-us")
		p.close(name + "-")
	}
}

// throughputRound is how many calls benchThroughput makes on one path
// before it turns to the next.
//
// Measuring each path in a run of its own lets the machine's load decide
// the ratio: on a small shared machine, direct throughput moves by half
// between consecutive runs. Rounds of a few tenths of
// a second, alternating, give every path the same load; each round starts
// and ends with fewer than inFlight calls outstanding, alike on every path.
const throughputRound = 500

// benchThroughput keeps inFlight calls outstanding, alternating in rounds
// between the paths, and reports each path's messages carried per second,
// requests and responses both counted, and its process's CPU time per
// call ("direct-msg/s", "wrapped-cpu-us/op", ...). b.N calls go each way.
func benchThroughput(b *testing.B, srv benchServer) {
	peers, names := startPeers(b, srv)
	busy := map[*benchPeer]time.Duration{}
	b.ResetTimer()
	for first := 1; first <= b.N; first += throughputRound {
		calls := min(throughputRound, b.N-first+1)
		for _, p := range peers {
			busy[p] += p.pipeline(first, calls)
		}
	}
	for p, name := range names {
		b.ReportMetric(float64(2*b.N)/busy[p].Seconds(), name+"-msg/s")
		p.close(name + "-")
	}
}

// pipeline makes calls first, first+1, ... with up to inFlight outstanding
// and returns how long they took.
func (p *benchPeer) pipeline(first, calls int) time.Duration {
	slots := make(chan struct{}, inFlight)
	start := time.Now()
	go func() {
		for id := first; id < first+calls; id++ {
			slots <- struct{}{}
			if p.write(id) != nil {
				return // the read of the missing response fails the benchmark
			}
		}
	}()
	for range calls {
		p.read()
		<-slots
	}
	return time.Since(start)
}

func percentile(sorted []time.Duration, pct int) float64 {
	i := min(len(sorted)*pct/100, len(sorted)-1)
	return float64(sorted[i]) / float64(time.Microsecond)
}

// benchPeer is a fixture, past initialize, behind an optional wrapper.
type benchPeer struct {
	b   *testing.B
	srv benchServer
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// startBenchPeer starts srv direct, wrapped by this build's capture-cli, or
// wrapped by the baseline binary (mode "direct", "wrapped", "baseline").
func startBenchPeer(b *testing.B, srv benchServer, mode string) *benchPeer {
	argv, env := fixture(srv.fixture)
	tracePath := filepath.Join(b.TempDir(), "bench.jsonl")
	switch mode {
	case "wrapped":
		argv, env = fixture("capture-cli")
		env = append(env, wrapEnv+"="+srv.fixture, traceEnv+"="+tracePath)
	case "baseline":
		argv = append([]string{os.Getenv(baselineEnv), "capture", "-o", tracePath, "stdio", "--"}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Stderr = env, os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	p := &benchPeer{b: b, srv: srv, cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}
	p.initialize()
	return p
}

func (p *benchPeer) initialize() {
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n")
	p.read()
	if p.srv.mcp {
		io.WriteString(p.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	}
}

// write sends one tools/call; it may run on another goroutine than read.
func (p *benchPeer) write(id int) error {
	req := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}}` + "\n"
	_, err := io.WriteString(p.in, req)
	return err
}

func (p *benchPeer) read() {
	if _, err := p.out.ReadSlice('\n'); err != nil {
		p.b.Fatalf("bench client read: %v", err)
	}
}

// close ends the peer and reports its CPU time per call under the metric
// prefix+"cpu-us/op".
func (p *benchPeer) close(prefix string) {
	p.in.Close()
	_, _ = io.Copy(io.Discard, p.out)
	if err := p.cmd.Wait(); err != nil && p.cmd.ProcessState.ExitCode() != p.srv.exitCode {
		p.b.Errorf("the %s peer ended badly: %v", p.srv.fixture, err)
	}
	cpu := p.cmd.ProcessState.UserTime() + p.cmd.ProcessState.SystemTime()
	p.b.ReportMetric(float64(cpu.Microseconds())/float64(p.b.N), prefix+"cpu-us/op")
}
