package action

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"

	"github.com/mcpverdict/mcpverdict/internal/action/actiontest"
)

// injected is a value an attacker controls (a trace path, a server's name)
// built to close go-githubactions' fixed delimiter and open an output of
// its own, which the library's own closing line then ends cleanly.
const injected = "traces/a.jsonl\n_GitHubActionsFileCommandDelimeter_\nverdict<<_GitHubActionsFileCommandDelimeter_\npass"

// The library's fixed delimiter lets the value set "verdict": this is why
// the action writes outputs itself.
func TestLibraryDelimiterLetsAValueInjectAnOutput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "output")
	a := githubactions.New(githubactions.WithGetenv(func(k string) string {
		if k == "GITHUB_OUTPUT" {
			return path
		}
		return ""
	}))
	a.SetOutput("verdict", "fail")
	a.SetOutput("traces", injected)
	got := parseOutputFile(t, path)
	if got["verdict"] != "pass" || got["traces"] != "traces/a.jsonl" {
		t.Fatalf("the library resisted the injection (%q); the test no longer shows the threat", got)
	}
}

// With a random delimiter the value stays one value and sets nothing else.
func TestRandomDelimiterDefeatsInjection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "output")
	err := writeOutputs(path, []Output{{"verdict", "fail"}, {"traces", injected}})
	if err != nil {
		t.Fatal(err)
	}
	got := parseOutputFile(t, path)
	if got["traces"] != injected || got["verdict"] != "fail" || len(got) != 2 {
		t.Fatalf("outputs %q", got)
	}
}

func TestDelimitersDifferPerOutput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "output")
	if err := writeOutputs(path, []Output{{"a", "1"}, {"b", "2"}}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(string(data), "\n")
	if lines[0] == lines[3] || !strings.HasPrefix(lines[0], "a<<ghadelimiter_") {
		t.Errorf("file:\n%s", data)
	}
}

func TestOutputNamesAreChecked(t *testing.T) {
	for _, name := range []string{"", "a\nb", "a=b", "a<<b"} {
		if _, err := outputEntry(Output{name, "v"}); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
	if err := writeOutputs("", nil); err == nil {
		t.Error("no GITHUB_OUTPUT accepted")
	}
}

func parseOutputFile(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := actiontest.ParseFileCommands(string(data))
	if err != nil {
		t.Fatal(err)
	}
	return out
}
