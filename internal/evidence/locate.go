package evidence

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// sourceExts are the files a tool may be declared in.
var sourceExts = map[string]bool{
	".go": true, ".ts": true, ".tsx": true, ".js": true, ".mjs": true, ".cjs": true, ".py": true,
	".rs": true, ".java": true, ".kt": true, ".cs": true, ".rb": true, ".php": true, ".swift": true,
}

// skippedDirs are never searched: dependencies, build output, VCS data.
var skippedDirs = map[string]bool{
	".git": true, "node_modules": true, "vendor": true, "dist": true, "build": true,
	"target": true, ".venv": true, "venv": true, "__pycache__": true, "mcpverdict-out": true,
}

// maxSourceBytes bounds the files searched: a generated bundle is no
// declaration a reviewer would be pointed at.
const maxSourceBytes = 1 << 20

// Locate finds where the repository under root declares each tool: the
// first line of a source file that holds the tool's name as a string literal
// on a line that mentions a name or a tool (else any such line), or a Python
// function of that name (FastMCP's @mcp.tool()). Tools not found are absent.
func Locate(root string, tools []string) map[string]Location {
	found := map[string]Location{}
	weak := map[string]Location{}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if skippedDirs[d.Name()] && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !sourceExts[filepath.Ext(path)] {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > maxSourceBytes {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		scanSource(path, filepath.ToSlash(rel), tools, found, weak)
		if len(found) == len(tools) {
			return filepath.SkipAll
		}
		return nil
	})
	for name, loc := range weak {
		if _, ok := found[name]; !ok {
			found[name] = loc
		}
	}
	return found
}

func scanSource(path, rel string, tools []string, found, weak map[string]Location) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxSourceBytes)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		for _, tool := range tools {
			if _, done := found[tool]; done || !declares(line, tool) {
				continue
			}
			lower := strings.ToLower(line)
			if strings.Contains(lower, "name") || strings.Contains(lower, "tool") || strings.Contains(line, "def "+tool+"(") {
				found[tool] = Location{Path: rel, Line: n}
			} else if _, ok := weak[tool]; !ok {
				weak[tool] = Location{Path: rel, Line: n}
			}
		}
	}
}

func declares(line, tool string) bool {
	for _, q := range []string{`"`, `'`, "`"} {
		if strings.Contains(line, q+tool+q) {
			return true
		}
	}
	return strings.Contains(line, "def "+tool+"(")
}

// AttachLocations sets each finding's Location to where the repository
// under root declares its tool, when found.
func AttachLocations(findings []Finding, root string) {
	var names []string
	for _, f := range findings {
		if f.Tool != "" {
			names = append(names, f.Tool)
		}
	}
	if len(names) == 0 {
		return
	}
	where := Locate(root, names)
	for i := range findings {
		if loc, ok := where[findings[i].Tool]; ok {
			findings[i].Location = &loc
		}
	}
}
