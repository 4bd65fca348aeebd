package toolsource

import (
	"os"
	"path/filepath"
	"testing"
)

func layout(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestEntry(t *testing.T) {
	goMain := "package main\n\nimport \"os\"\n\nfunc main() {\n\tos.Exit(0)\n}\n"
	for _, c := range []struct {
		name    string
		files   map[string]string
		command []string
		tracked []string // nil: every file counts
		want    Place
		found   bool
	}{
		{"the script the command runs", map[string]string{"server.py": "print()\n", "package.json": `{"main":"x.js"}`}, []string{"python", "server.py"}, nil, Place{"server.py", 1}, true},
		{"a Go folder the command runs", map[string]string{"cmd/srv/main.go": goMain}, []string{"go", "run", "./cmd/srv"}, nil, Place{"cmd/srv/main.go", 5}, true},
		{"an untracked build output: package.json's line", map[string]string{"dist/index.js": "x", "package.json": "{\n  \"name\": \"a\",\n  \"bin\": {\"a\": \"dist/index.js\"},\n  \"main\": \"dist/index.js\"\n}\n"}, []string{"node", "dist/index.js"}, []string{"package.json"}, Place{"package.json", 3}, true},
		{"pyproject scripts", map[string]string{"pyproject.toml": "[project]\nname = \"a\"\n\n[project.scripts]\nmcp-a = \"a:main\"\n"}, nil, nil, Place{"pyproject.toml", 5}, true},
		{"a Go main under cmd", map[string]string{"go.mod": "module a\n", "cmd/a/main.go": goMain, "lib.go": "package a\n"}, nil, nil, Place{"cmd/a/main.go", 5}, true},
		{"a command outside the repository", map[string]string{"README.md": "x"}, []string{"npx", "-y", "@scope/server", "/"}, nil, Place{}, false},
		{"nothing", map[string]string{"README.md": "x"}, nil, nil, Place{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := layout(t, c.files)
			var present func(string) bool
			if c.tracked != nil {
				set := map[string]bool{}
				for _, p := range c.tracked {
					set[p] = true
				}
				present = func(rel string) bool { return set[rel] }
			}
			got, ok := Entry(root, root, c.command, present)
			if ok != c.found || got != c.want {
				t.Errorf("Entry = %+v %v, want %+v %v", got, ok, c.want, c.found)
			}
		})
	}
}

func TestWorkflowStep(t *testing.T) {
	wf := "jobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n      - id: verdict\n        uses: acme/mcpverdict-fork@v2\n      - uses: mcpverdict/mcpverdict@v1\n"
	root := layout(t, map[string]string{".github/workflows/ci.yml": wf})
	for _, c := range []struct {
		step, repo string
		want       int
	}{
		{"verdict", "acme/mcpverdict-fork", 5},
		{"__mcpverdict_mcpverdict", "mcpverdict/mcpverdict", 7},
		{"__x", "", 6},
		{"", "someone/else", 6},
	} {
		if got := WorkflowStep(root, ".github/workflows/ci.yml", c.step, c.repo); got != c.want {
			t.Errorf("WorkflowStep(%q, %q) = %d, want %d", c.step, c.repo, got, c.want)
		}
	}
	if got := WorkflowStep(root, ".github/workflows/missing.yml", "", ""); got != 1 {
		t.Errorf("a missing workflow: %d, want 1", got)
	}
}
