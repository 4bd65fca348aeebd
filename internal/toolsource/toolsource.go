// Package toolsource finds the source line that declares an MCP tool, so
// that a finding about the tool can be shown where its author can fix it.
// A tool is declared where its name appears as a string literal in a
// tracked source file that is not a test or a fixture (those call tools
// by name without declaring them); a line that also says "name" or "tool"
// wins over any other.
package toolsource

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Limits that keep the search cheap on a large repository: files larger
// than maxFileBytes are never declarations anyone reads, and the index
// stops loading at maxTotalBytes.
const (
	maxFileBytes  = 1 << 20
	maxTotalBytes = 64 << 20
)

// sourceExts are the files a tool can be declared in.
var sourceExts = map[string]bool{
	".go": true, ".py": true, ".ts": true, ".tsx": true, ".js": true, ".mjs": true, ".cjs": true, ".jsx": true,
	".rs": true, ".java": true, ".kt": true, ".kts": true, ".cs": true, ".rb": true, ".php": true, ".swift": true,
	".scala": true, ".ex": true, ".exs": true, ".dart": true, ".c": true, ".cc": true, ".cpp": true, ".h": true,
	".hpp": true, ".lua": true, ".pl": true, ".clj": true, ".fs": true, ".vb": true, ".r": true, ".jl": true,
}

// skipDirs are never searched when the file list comes from a walk.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true, ".venv": true, "venv": true, "__pycache__": true, "dist": true, "build": true, "target": true}

// Index searches one repository. It loads the files on the first Find.
type Index struct {
	root  string
	once  sync.Once
	files []file
	found map[string]Place
	mu    sync.Mutex
}

// Place is a repository-relative, slash-separated path and a 1-based line.
type Place struct {
	Path string
	Line int
}

type file struct {
	path string
	data []byte
}

// New returns an index of the repository rooted at root.
func New(root string) *Index { return &Index{root: root, found: map[string]Place{}} }

// Find returns where tool is declared: the first line, in path order,
// holding its name as a string literal in double, single or back quotes,
// on a line that says "name" or "tool" if there is one.
func (ix *Index) Find(tool string) (path string, line int, ok bool) {
	if tool == "" {
		return "", 0, false
	}
	ix.once.Do(ix.load)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if p, seen := ix.found[tool]; seen {
		return p.Path, p.Line, p.Path != ""
	}
	p := ix.search(tool)
	ix.found[tool] = p
	return p.Path, p.Line, p.Path != ""
}

func (ix *Index) search(tool string) Place {
	needles := [][]byte{[]byte(`"` + tool + `"`), []byte(`'` + tool + `'`), []byte("`" + tool + "`")}
	var fallback Place
	for _, f := range ix.files {
		for n, line := range bytes.Split(f.data, []byte("\n")) {
			if !containsAny(line, needles) {
				continue
			}
			if declares(line) {
				return Place{Path: f.path, Line: n + 1}
			}
			if fallback.Path == "" {
				fallback = Place{Path: f.path, Line: n + 1}
			}
		}
	}
	return fallback
}

func containsAny(line []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(line, n) {
			return true
		}
	}
	return false
}

// declares tells a line that looks like a declaration: Name: "echo",
// server.tool("echo", …), @mcp.tool(name="echo"), name: 'echo'.
func declares(line []byte) bool {
	lower := bytes.ToLower(line)
	return bytes.Contains(lower, []byte("name")) || bytes.Contains(lower, []byte("tool"))
}

func (ix *Index) load() {
	paths := trackedFiles(ix.root)
	sort.Strings(paths)
	total := 0
	for _, p := range paths {
		if isTestPath(p) {
			continue
		}
		data, ok := readSource(filepath.Join(ix.root, filepath.FromSlash(p)))
		if !ok {
			continue
		}
		if total += len(data); total > maxTotalBytes {
			return
		}
		ix.files = append(ix.files, file{path: p, data: data})
	}
}

// trackedFiles lists the source files git tracks; without git (or outside
// a work tree) it walks the directory, leaving out dependency and build
// folders.
func trackedFiles(root string) []string {
	// safe.directory: in a container the checkout belongs to another user,
	// and git refuses such a repository unless told it is safe.
	cmd := exec.Command("git", "-c", "safe.directory=*", "-C", root, "ls-files", "-z", "--cached")
	if out, err := cmd.Output(); err == nil {
		var paths []string
		for _, p := range strings.Split(string(out), "\x00") {
			if sourceExts[strings.ToLower(filepath.Ext(p))] {
				paths = append(paths, p)
			}
		}
		return paths
	}
	return walkSources(root)
}

func walkSources(root string) []string {
	var paths []string
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if path != root && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if sourceExts[strings.ToLower(filepath.Ext(path))] {
			if rel, err := filepath.Rel(root, path); err == nil {
				paths = append(paths, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return paths
}

// readSource reads a text file of reasonable size.
func readSource(path string) ([]byte, bool) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxFileBytes {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return nil, false
	}
	return data, true
}

// isTestPath tells tests and fixtures, which mention tool names without
// declaring them.
func isTestPath(p string) bool {
	lower := strings.ToLower(p)
	base := filepath.Base(lower)
	if strings.HasSuffix(base, "_test.go") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.HasPrefix(base, "test_") || strings.HasSuffix(strings.TrimSuffix(base, filepath.Ext(base)), "_test") {
		return true
	}
	for _, dir := range []string{"test/", "tests/", "testdata/", "__tests__/", "fixtures/", "e2e/"} {
		if strings.HasPrefix(lower, dir) || strings.Contains(lower, "/"+dir) {
			return true
		}
	}
	return false
}

// Tracked returns the set of every path git tracks under root
// (slash-separated, relative to root); ok is false when root is not a git
// work tree, and then nothing is known to be tracked or not.
func Tracked(root string) (set map[string]bool, ok bool) {
	cmd := exec.Command("git", "-c", "safe.directory=*", "-C", root, "ls-files", "-z", "--cached")
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	set = map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			set[p] = true
		}
	}
	return set, true
}
