// Package recorded re-records corpus/recorded: real sessions the driver has
// with real servers, which the judge's corpus test holds to their headers.
package recorded

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
)

// recordEnv opts in: re-recording rewrites committed files, and the new
// traces' findings must be reviewed (and their headers updated) by hand.
const recordEnv = "MCPVERDICT_RECORD"

// The fixed paths the recorded servers work in, so that a re-recording
// differs from the last one only where the server's answers do. The
// filesystem server's allowed directory is the root the driver offers
// (driver.RootURI), since a client's roots replace the server's own.
const (
	filesystemDir = "/tmp/mcpverdict-root"
	memoryFile    = "/tmp/mcpverdict-corpus-memory.jsonl"
)

// recording is one `mcpverdict check` whose traces become corpus files:
// traces maps each trace check writes to its corpus name.
type recording struct {
	name   string
	args   []string
	env    []string
	traces map[string]string
}

func corpusDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "corpus", "recorded")
}

// TestRecordCorpus re-records every corpus/recorded trace when
// MCPVERDICT_RECORD=1, keeping each file's header (what a reviewer wrote
// about its findings) and replacing its events. Run it, then
// `go test ./internal/judge -run TestCorpus` and review what changed.
func TestRecordCorpus(t *testing.T) {
	if os.Getenv(recordEnv) != "1" {
		t.Skip("set " + recordEnv + "=1 to re-record corpus/recorded")
	}
	bin := buildMCPVerdict(t, t.TempDir())
	for _, r := range recordings(t, bin) {
		t.Run(r.name, func(t *testing.T) { record(t, bin, r) })
	}
}

// buildMCPVerdict builds the binary into dir and returns its path.
func buildMCPVerdict(t *testing.T, dir string) string {
	bin := filepath.Join(dir, "mcpverdict")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/mcpverdict/mcpverdict/cmd/mcpverdict").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func recordings(t *testing.T, bin string) []recording {
	prepareFilesystem(t)
	os.Remove(memoryFile)
	everything := quote(peers.Everything(t))
	probes := map[string]string{}
	for _, p := range []string{"before-initialize", "unknown-method", "invalid-params", "invalid-cursor", "malformed-json", "batch", "reused-id"} {
		probes["probe-"+p+"-stdio-2025-11-25.jsonl"] = "server-everything-probe-" + p
	}
	memArgv, memEnv := peers.Memory(t, memoryFile)
	return []recording{
		{"server-everything", []string{"--server", everything, "--revision", "2025-11-25"}, nil,
			map[string]string{"session-stdio-2025-11-25.jsonl": "server-everything-stdio-2025-11-25"}},
		// --call all lets the driver run simulate-research-query, the tool
		// that requires a task, through the whole task lifecycle.
		{"server-everything-tasks", []string{"--server", everything, "--revision", "2025-11-25", "--call", "all", "--extension", "tasks"}, nil,
			map[string]string{"session-stdio-2025-11-25.jsonl": "server-everything-tasks-stdio-2025-11-25"}},
		{"server-everything-probes", []string{"--server", everything, "--revision", "2025-11-25", "--probe-rejections"}, nil, probes},
		{"server-everything-http", []string{"--url", peers.EverythingHTTP(t), "--revision", "2025-11-25"}, nil,
			map[string]string{"session-http-2025-11-25.jsonl": "server-everything-http-2025-11-25"}},
		{"server-filesystem", []string{"--server", quote(peers.Filesystem(t, filesystemDir)), "--revision", "2025-11-25"}, nil,
			map[string]string{"session-stdio-2025-11-25.jsonl": "server-filesystem-stdio-2025-11-25"}},
		{"server-memory", []string{"--server", quote(memArgv), "--revision", "2025-11-25", "--call", "all"}, []string{memEnv},
			map[string]string{"session-stdio-2025-11-25.jsonl": "server-memory-stdio-2025-11-25"}},
		{"server-everything-2025-06-18", []string{"--server", everything, "--revision", "2025-06-18"}, nil,
			map[string]string{"session-stdio-2025-06-18.jsonl": "server-everything-stdio-2025-06-18"}},
		{"server-everything-http-2025-06-18", []string{"--url", peers.EverythingHTTP(t), "--revision", "2025-06-18"}, nil,
			map[string]string{"session-http-2025-06-18.jsonl": "server-everything-http-2025-06-18"}},
		{"server-memory-2025-06-18", []string{"--server", quote(memArgv), "--revision", "2025-06-18", "--call", "all"}, []string{memEnv},
			map[string]string{"session-stdio-2025-06-18.jsonl": "server-memory-stdio-2025-06-18"}},
		{"example-server-2025-06-18", []string{"--revision", "2025-06-18"}, nil,
			map[string]string{"session-stdio-2025-06-18.jsonl": "example-server-stdio-2025-06-18"}},
		{"server-everything-2025-03-26", []string{"--server", everything, "--revision", "2025-03-26"}, nil,
			map[string]string{"session-stdio-2025-03-26.jsonl": "server-everything-stdio-2025-03-26"}},
		{"server-everything-http-2025-03-26", []string{"--url", peers.EverythingHTTP(t), "--revision", "2025-03-26"}, nil,
			map[string]string{"session-http-2025-03-26.jsonl": "server-everything-http-2025-03-26"}},
		{"example-server-2025-03-26", []string{"--revision", "2025-03-26"}, nil,
			map[string]string{"session-stdio-2025-03-26.jsonl": "example-server-stdio-2025-03-26"}},
		{"server-everything-2024-11-05", []string{"--server", everything, "--revision", "2024-11-05"}, nil,
			map[string]string{"session-stdio-2024-11-05.jsonl": "server-everything-stdio-2024-11-05"}},
		{"example-server-2024-11-05", []string{"--revision", "2024-11-05"}, nil,
			map[string]string{"session-stdio-2024-11-05.jsonl": "example-server-stdio-2024-11-05"}},
		{"gosdk-everything", []string{"--server", quote([]string{goSDKExample(t, "everything")})}, nil, map[string]string{
			"session-stdio-2025-11-25.jsonl": "gosdk-everything-stdio-2025-11-25",
			"session-stdio-2026-07-28.jsonl": "gosdk-everything-stdio-2026-07-28",
		}},
		{"gosdk-sequentialthinking", []string{"--server", quote([]string{goSDKExample(t, "sequentialthinking")}), "--call", "all"}, nil, map[string]string{
			"session-stdio-2025-11-25.jsonl": "gosdk-sequentialthinking-stdio-2025-11-25",
			"session-stdio-2026-07-28.jsonl": "gosdk-sequentialthinking-stdio-2026-07-28",
		}},
		{"tssdk-output-schema", []string{"--server", quote([]string{peers.Require(t), tsSDKExample("mcpServerOutputSchema.js")}), "--call", "all"}, nil,
			map[string]string{"session-stdio-2025-11-25.jsonl": "tssdk-output-schema-stdio-2025-11-25"}},
		{"tssdk-json-response-http", []string{"--url", tsSDKJSONResponseHTTP(t), "--call", "all"}, nil,
			map[string]string{"session-http-2025-11-25.jsonl": "tssdk-json-response-http-2025-11-25"}},
		{"example-server", nil, nil, map[string]string{
			"session-stdio-2025-11-25.jsonl": "example-server-stdio-2025-11-25",
			"session-stdio-2026-07-28.jsonl": "example-server-stdio-2026-07-28",
		}},
		// The example server answers an unreadable line with an error that
		// has no id, and holds a discovered session to per-request _meta.
		{"example-server-probes", []string{"--probe-rejections"}, nil, map[string]string{
			"probe-malformed-json-stdio-2025-11-25.jsonl": "example-server-probe-malformed-json-2025-11-25",
			"probe-batch-stdio-2026-07-28.jsonl":          "example-server-probe-batch-2026-07-28",
			"probe-missing-meta-stdio-2026-07-28.jsonl":   "example-server-probe-missing-meta-2026-07-28",
		}},
	}
}

// goSDKExample builds one of the Go SDK's own example servers, at the SDK
// version this module requires.
func goSDKExample(t *testing.T, name string) string {
	bin := filepath.Join(t.TempDir(), "gosdk-"+name)
	pkg := "github.com/modelcontextprotocol/go-sdk/examples/server/" + name
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// tsSDKExample is the path of one of the TypeScript SDK's example servers,
// installed with the npm peers as server-everything's SDK.
func tsSDKExample(name string) string {
	return peers.Module("@modelcontextprotocol/sdk", filepath.Join("dist", "esm", "examples", "server", name))
}

// tsSDKJSONResponseHTTP starts the TypeScript SDK's JSON-response
// streamable-HTTP example, which listens on port 3000 of its own choosing.
func tsSDKJSONResponseHTTP(t *testing.T) string {
	cmd := exec.Command(peers.Require(t), "--require", peers.LoopbackPreload(), tsSDKExample("jsonResponseStreamableHttp.js"))
	peers.StartListening(t, cmd, "tssdk-json-response", "127.0.0.1:3000")
	return "http://127.0.0.1:3000/mcp"
}

// prepareFilesystem gives the filesystem server a small, fixed directory.
func prepareFilesystem(t *testing.T) {
	os.RemoveAll(filesystemDir)
	if err := os.MkdirAll(filepath.Join(filesystemDir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"README.md": "# A directory mcpverdict records\n", "notes/today.txt": "one line\n"} {
		if err := os.WriteFile(filepath.Join(filesystemDir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// record runs check with a minimal environment (server-everything's get-env
// tool echoes it into the trace) and writes each trace under its header.
func record(t *testing.T, bin string, r recording) {
	out := t.TempDir()
	cmd := exec.Command(bin, append([]string{"check", "--out", out}, r.args...)...)
	cmd.Env = append([]string{"PATH=/usr/local/bin:/usr/bin:/bin"}, r.env...)
	b, err := cmd.CombinedOutput()
	if err != nil && cmd.ProcessState.ExitCode() > 1 {
		t.Fatalf("check %v: %v\n%s", r.args, err, b)
	}
	for file, name := range r.traces {
		events, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			t.Fatalf("%s: %v\n%s", file, err, b)
		}
		path := filepath.Join(corpusDir(), name+".jsonl")
		if err := os.WriteFile(path, append(header(path), events...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// header returns the '#' lines at the top of an existing corpus file, or a
// placeholder for a new one.
func header(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return []byte("# NEW: recorded by TestRecordCorpus; describe the session and expect its findings.\n")
	}
	defer f.Close()
	var out bytes.Buffer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && strings.HasPrefix(sc.Text(), "#") {
		out.WriteString(sc.Text() + "\n")
	}
	return out.Bytes()
}

// quote joins argv into a command line check splits back the same way.
func quote(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(words, " ")
}
