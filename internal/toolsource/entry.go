package toolsource

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Entry finds the server's own entry file in the repository rooted at
// root: where a finding that names no tool is shown when the trace it
// came from is not in the repository. It tries, in order, a file or
// folder the server command names (relative to wd, where the command
// runs); the main or bin of package.json; the scripts of pyproject.toml;
// a Go main package. present, when not nil, says whether a
// repository-relative path is one a reviewer can open (git tracks it).
func Entry(root, wd string, command []string, present func(rel string) bool) (Place, bool) {
	if present == nil {
		present = func(rel string) bool { return isFile(filepath.Join(root, rel)) }
	}
	for _, find := range []func() (Place, bool){
		func() (Place, bool) { return commandEntry(root, wd, command, present) },
		func() (Place, bool) { return packageJSONEntry(root, present) },
		func() (Place, bool) { return pyprojectEntry(root, present) },
		func() (Place, bool) { return goMainEntry(root, present) },
	} {
		if p, ok := find(); ok {
			return p, true
		}
	}
	return Place{}, false
}

// commandEntry takes the first word of the command, after the program,
// that names a file or a folder of the repository: `node dist/index.js`,
// `python server.py`, `go run ./cmd/server`.
func commandEntry(root, wd string, command []string, present func(string) bool) (Place, bool) {
	for _, word := range command[min(1, len(command)):] {
		if strings.HasPrefix(word, "-") || strings.Contains(word, "://") {
			continue
		}
		path := word
		if !filepath.IsAbs(path) {
			path = filepath.Join(wd, path)
		}
		rel, ok := under(root, path)
		if !ok {
			continue
		}
		if present(rel) {
			return Place{Path: rel, Line: 1}, true
		}
		if p, ok := goMainIn(root, rel, present); ok {
			return p, true
		}
	}
	return Place{}, false
}

// packageJSONEntry is the line of package.json's main or bin: the file
// they name is often a build output git does not track, so the line that
// names it is the place a reviewer can open.
func packageJSONEntry(root string, present func(string) bool) (Place, bool) {
	data, err := os.ReadFile(filepath.Join(root, "package.json"))
	if err != nil || !present("package.json") {
		return Place{}, false
	}
	var pkg struct {
		Main string          `json:"main"`
		Bin  json.RawMessage `json:"bin"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return Place{}, false
	}
	for _, key := range []string{`"bin"`, `"main"`} {
		if key == `"bin"` && len(pkg.Bin) == 0 || key == `"main"` && pkg.Main == "" {
			continue
		}
		if line := lineOf(data, regexp.MustCompile(`^\s*`+key+`\s*:`)); line > 0 {
			return Place{Path: "package.json", Line: line}, true
		}
	}
	return Place{}, false
}

// pyprojectEntry is the first line of [project.scripts] (or Poetry's
// scripts) in pyproject.toml.
func pyprojectEntry(root string, present func(string) bool) (Place, bool) {
	data, err := os.ReadFile(filepath.Join(root, "pyproject.toml"))
	if err != nil || !present("pyproject.toml") {
		return Place{}, false
	}
	header := regexp.MustCompile(`^\s*\[(project\.scripts|tool\.poetry\.scripts)\]`)
	entry := regexp.MustCompile(`^\s*[A-Za-z0-9_.-]+\s*=`)
	in := false
	for i, line := range bytes.Split(data, []byte("\n")) {
		switch {
		case header.Match(line):
			in = true
		case bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")):
			in = false
		case in && entry.Match(line):
			return Place{Path: "pyproject.toml", Line: i + 1}, true
		}
	}
	return Place{}, false
}

// goMainEntry is a Go main package at the root or under cmd/.
func goMainEntry(root string, present func(string) bool) (Place, bool) {
	if p, ok := goMainIn(root, ".", present); ok {
		return p, true
	}
	dirs, _ := os.ReadDir(filepath.Join(root, "cmd"))
	for _, d := range dirs {
		if d.IsDir() {
			if p, ok := goMainIn(root, "cmd/"+d.Name(), present); ok {
				return p, true
			}
		}
	}
	return Place{}, false
}

var funcMain = regexp.MustCompile(`^func main\(\)`)

// goMainIn is the line of func main in the Go main package of the folder
// rel.
func goMainIn(root, rel string, present func(string) bool) (Place, bool) {
	files, _ := filepath.Glob(filepath.Join(root, rel, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, ok := readSource(f)
		if !ok || !bytes.Contains(data, []byte("package main")) {
			continue
		}
		frel, ok := under(root, f)
		if !ok || !present(frel) {
			continue
		}
		if line := lineOf(data, funcMain); line > 0 {
			return Place{Path: frel, Line: line}, true
		}
	}
	return Place{}, false
}

// under returns path relative to root, slash-separated, when it lies
// inside it.
func under(root, path string) (string, bool) {
	rel, err := filepath.Rel(root, filepath.Clean(path))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func lineOf(data []byte, re *regexp.Regexp) int {
	for i, line := range bytes.Split(data, []byte("\n")) {
		if re.Match(line) {
			return i + 1
		}
	}
	return 0
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// WorkflowStep is the line, in the workflow file at the repository-
// relative path workflow, of the step that ran the action: the step whose
// id is stepID (GITHUB_ACTION, when the step has an id), else the first
// step that uses actionRepo (GITHUB_ACTION_REPOSITORY), else any step
// that uses an action called mcpverdict; 1 when none is found.
func WorkflowStep(root, workflow, stepID, actionRepo string) int {
	data, ok := readSource(filepath.Join(root, filepath.FromSlash(workflow)))
	if !ok {
		return 1
	}
	var patterns []*regexp.Regexp
	if stepID != "" && !strings.HasPrefix(stepID, "__") {
		patterns = append(patterns, regexp.MustCompile(`^\s*(-\s+)?id:\s*['"]?`+regexp.QuoteMeta(stepID)+`['"]?\s*(#.*)?$`))
	}
	if actionRepo != "" {
		patterns = append(patterns, regexp.MustCompile(`^\s*(-\s+)?uses:\s*['"]?`+regexp.QuoteMeta(actionRepo)+`[@/]`))
	}
	patterns = append(patterns, regexp.MustCompile(`^\s*(-\s+)?uses:\s*['"]?[^\s'"]*mcpverdict[^\s'"]*@`))
	for _, re := range patterns {
		if line := lineOf(data, re); line > 0 {
			return line
		}
	}
	return 1
}
