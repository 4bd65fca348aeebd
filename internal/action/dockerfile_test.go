package action

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
)

var (
	fromLine    = regexp.MustCompile(`(?m)^FROM\s+(\S+)(?:\s+AS\s+(\S+))?`)
	baseArgLine = regexp.MustCompile(`(?m)^ARG\s+([A-Z_]+_IMAGE)=(\S+)$`)
	digestPin   = regexp.MustCompile(`^[a-z0-9./_:-]+@sha256:[0-9a-f]{64}$`)
)

// The Dockerfile keeps its promises: every base image a build argument
// whose default is pinned by digest, the schema source a build argument
// whose default is the pinned specification commit, no syntax line (it
// would need a registry), a static trimmed build, the judge target with a
// non-root user, the runtime last (the stage action.yml builds) with
// Node.js and Python and no USER (GitHub runs a docker action as root).
// dockerfile-utils, a Dockerfile linter, finds nothing to say.
func TestDockerfile(t *testing.T) {
	text := readRepoFile(t, "Dockerfile")
	firstFrom := strings.Index(text, "\nFROM ")
	if firstFrom < 0 {
		t.Fatal("the Dockerfile has no FROM")
	}
	bases := map[string]string{}
	for _, m := range baseArgLine.FindAllStringSubmatch(text[:firstFrom], -1) {
		bases[m[1]] = m[2]
		if !digestPin.MatchString(m[2]) {
			t.Errorf("ARG %s=%s is not pinned by digest", m[1], m[2])
		}
	}
	stages := fromLine.FindAllStringSubmatch(text, -1)
	want := map[string]string{"build": "GO_IMAGE", "node": "NODE_IMAGE", "judge": "JUDGE_IMAGE", "runtime": "RUNTIME_IMAGE"}
	var names []string
	for _, s := range stages {
		names = append(names, s[2])
		if arg := want[s[2]]; s[1] != "${"+arg+"}" || bases[arg] == "" {
			t.Errorf("stage %s is FROM %s, want FROM ${%s} with a pinned default", s[2], s[1], arg)
		}
	}
	if got := strings.Join(names, " "); got != "build node judge runtime" {
		t.Errorf("stages %q, want build, node, judge and runtime last", got)
	}
	if strings.Contains(strings.ToLower(text), "# syntax=") {
		t.Error("the Dockerfile has a syntax line; building it would need a registry")
	}
	if want := "ARG SCHEMA_BASE_URL=" + wireschema.DefaultBaseURL + "\n"; !strings.Contains(text, want) {
		t.Errorf("the Dockerfile lacks %q", strings.TrimSpace(want))
	}
	for _, want := range []string{
		"CGO_ENABLED=0", "go build -trimpath", `schema fetch --base-url "$SCHEMA_BASE_URL" --dir /out/schema`,
		"/usr/share/mcpverdict/schema", "USER nonroot:nonroot", "/usr/local/bin/node", "python3 --version", `CMD ["action"]`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the Dockerfile lacks %q", want)
		}
	}
	if runtime := text[strings.LastIndex(text, "\nFROM "):]; regexp.MustCompile(`(?m)^USER\s`).MatchString(runtime) {
		t.Error("the runtime stage sets USER; GitHub runs a docker action as root and the workspace belongs to the runner's user")
	}
	node := peers.Require(t)
	out, err := exec.Command(node, peers.Module("dockerfile-utils", "bin/dockerfile-utils"), "lint", repoFile("Dockerfile")).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Errorf("dockerfile-utils lint: %v\n%s", err, out)
	}
}

// The build context holds every file the image's build reads: the Go files
// of cmd/mcpverdict and of every package of this module it imports, on
// both platforms the release builds, their embedded files, and go.mod,
// go.sum and the PGO profile. A file .dockerignore leaves out would stop
// the build at "no required module provides package".
func TestDockerignore(t *testing.T) {
	patterns := dockerignorePatterns(t, readRepoFile(t, ".dockerignore"))
	inputs := buildInputs(t)
	if len(inputs) < 100 {
		t.Fatalf("go list found only %d build inputs", len(inputs))
	}
	for _, path := range ignoredOf(t, patterns, inputs) {
		t.Errorf(".dockerignore leaves out %s, which the image's build reads", path)
	}
	// The check can fail: the pattern that once broke the build is caught.
	if got := ignoredOf(t, append(patterns, "corpus"), inputs); len(got) == 0 || !strings.HasPrefix(got[0], "corpus/probe/fixtures/") {
		t.Errorf("an ignored corpus went unnoticed: %v", got)
	}
}

func dockerignorePatterns(t *testing.T, text string) []string {
	t.Helper()
	patterns, err := ignorefile.ReadAll(strings.NewReader(text))
	if err != nil {
		t.Fatalf(".dockerignore: %v", err)
	}
	return patterns
}

func ignoredOf(t *testing.T, patterns, paths []string) []string {
	t.Helper()
	pm, err := patternmatcher.New(patterns)
	if err != nil {
		t.Fatalf(".dockerignore: %v", err)
	}
	var out []string
	for _, p := range paths {
		excluded, err := pm.MatchesOrParentMatches(p)
		if err != nil {
			t.Fatal(err)
		}
		if excluded {
			out = append(out, p)
		}
	}
	return out
}

// buildInputs lists, relative to the repository root, the files the
// Dockerfile's go build reads from this module.
func buildInputs(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs(repoFile(""))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{"go.mod": true, "go.sum": true, "cmd/mcpverdict/default.pgo": true}
	for _, arch := range []string{"amd64", "arm64"} {
		cmd := exec.Command("go", "list", "-deps", "-json=Dir,Module,GoFiles,EmbedFiles,IgnoredGoFiles", "./cmd/mcpverdict")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+arch, "CGO_ENABLED=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for dec.More() {
			var p struct {
				Dir                 string
				Module              *struct{ Main bool }
				GoFiles, EmbedFiles []string
			}
			if err := dec.Decode(&p); err != nil {
				t.Fatal(err)
			}
			if p.Module == nil || !p.Module.Main {
				continue
			}
			for _, f := range append(p.GoFiles, p.EmbedFiles...) {
				rel, err := filepath.Rel(root, filepath.Join(p.Dir, f))
				if err != nil {
					t.Fatal(err)
				}
				seen[filepath.ToSlash(rel)] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(repoFile(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
