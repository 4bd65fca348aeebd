package toolsource

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindSkipsTestsAndPrefersDeclarations(t *testing.T) {
	root := t.TempDir() // not a git work tree: the walk is used
	write(t, root, "a_test.go", `call("echo")`)
	write(t, root, "tests/fixture.py", `"echo"`)
	write(t, root, "src/server.ts", "const x = 1\n\nserver.tool('echo', schema)\n")
	write(t, root, "src/other.py", "name = `add`\n")
	write(t, root, "src/a_first.go", "if op == \"mul\" {\n")
	write(t, root, "src/b_then.go", "x := 1\nName: \"mul\",\n")
	write(t, root, "src/c_only.go", "case \"div\":\n")
	write(t, root, "test_only.py", "tool = 'only_in_tests'\n")
	write(t, root, "node_modules/dep/index.js", `"sum"`)
	write(t, root, "README.md", `"sum"`)
	ix := New(root)
	cases := []struct {
		tool string
		path string
		line int
		ok   bool
	}{
		{"echo", "src/server.ts", 3, true},
		{"add", "src/other.py", 1, true},
		{"mul", "src/b_then.go", 2, true}, // a line that names it wins
		{"div", "src/c_only.go", 1, true}, // else any literal
		{"only_in_tests", "", 0, false},
		{"sum", "", 0, false}, // only in dependencies and docs
		{"ech", "", 0, false}, // a literal is the whole name
		{"", "", 0, false},
	}
	for _, tc := range cases {
		path, line, ok := ix.Find(tc.tool)
		if path != tc.path || line != tc.line || ok != tc.ok {
			t.Errorf("Find(%q) = %q, %d, %v; want %q, %d, %v", tc.tool, path, line, ok, tc.path, tc.line, tc.ok)
		}
	}
}

func TestFindInThisRepository(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	path, line, ok := New(root).Find("slow_count")
	if !ok || filepath.Dir(path) != "internal/exampleserver" || line < 1 {
		t.Errorf("slow_count found at %q:%d (%v); the example server declares it", path, line, ok)
	}
}

func TestIsTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"a_test.go": true, "src/x.test.ts": true, "pkg/testdata/x.go": true, "tests/a.py": true, "test_a.py": true,
		"src/server.go": false, "internal/testserver/echo.go": false, "contest/a.go": false,
	} {
		if got := isTestPath(p); got != want {
			t.Errorf("isTestPath(%q) = %v", p, got)
		}
	}
}
