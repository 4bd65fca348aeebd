package action

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"

	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// Whatever a workflow puts in the inputs, reading them ends in inputs that
// hold together or in one error line, and every path they name lies where
// the workspace resolves it; the command line built from them has no
// empty flag value.
func FuzzReadInputs(f *testing.F) {
	f.Add("node dist/index.js", "", "", "must", "", "mcpverdict-out", "true")
	f.Add("", "", "traces/**/*.jsonl\n{a,b}.jsonl", "should", "server", "../out", "false")
	f.Add("x", "http://127.0.0.1:1/mcp", "t", "sometimes", "both", "/abs\n", "yes")
	f.Fuzz(func(t *testing.T, server, url, traces, failOn, party, outDir, strict string) {
		values := map[string]string{"server": server, "url": url, "traces": traces, "fail-on": failOn, "party": party, "output-dir": outDir, "strict": strict, "probe": traces, "contract": outDir}
		a := githubactions.New(githubactions.WithGetenv(func(k string) string {
			name, ok := strings.CutPrefix(k, "INPUT_")
			if !ok {
				return ""
			}
			return values[strings.ToLower(name)]
		}))
		in, err := readInputs(a, "/github/workspace")
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\r\n") || wiretext.Visible(msg) != msg {
				t.Fatalf("an error that is not one visible line: %q", msg)
			}
			return
		}
		if !filepath.IsAbs(in.OutputDir) {
			t.Fatalf("output dir %q is not absolute", in.OutputDir)
		}
		for _, arg := range commandLine(in, in.Traces, in.Baseline) {
			if arg == "" {
				t.Fatalf("an empty argument in %q", commandLine(in, in.Traces, in.Baseline))
			}
		}
	})
}
