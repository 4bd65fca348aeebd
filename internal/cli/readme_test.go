package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeCommands are the mcpverdict command lines of the shell blocks of
// the README and the pages in docs/, continuation lines joined and
// trailing comments cut.
func readmeCommands(t *testing.T) []string {
	t.Helper()
	pages, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	var out []string
	for _, page := range append([]string{filepath.Join("..", "..", "README.md")}, pages...) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, shellCommands(string(data))...)
	}
	return out
}

// shellCommands are the mcpverdict command lines of a page's sh blocks.
func shellCommands(page string) []string {
	var out []string
	in, line := false, ""
	for _, raw := range strings.Split(page, "\n") {
		switch {
		case strings.HasPrefix(raw, "```sh"):
			in = true
			continue
		case strings.HasPrefix(raw, "```"):
			in = false
			continue
		case !in:
			continue
		}
		line += strings.TrimSpace(raw)
		if strings.HasSuffix(line, `\`) {
			line = strings.TrimSuffix(line, `\`) + " "
			continue
		}
		if i := strings.Index(line, "  #"); i >= 0 {
			line = line[:i]
		}
		if strings.HasPrefix(line, "mcpverdict ") {
			out = append(out, strings.TrimSpace(line))
		}
		line = ""
	}
	return out
}

// Every mcpverdict command the README and docs/ show names a command that exists,
// with flags it takes and as many arguments as it accepts.
func TestReadmeCommandsParse(t *testing.T) {
	commands := readmeCommands(t)
	if len(commands) < 20 {
		t.Fatalf("found %d mcpverdict commands in the README; the extraction is broken", len(commands))
	}
	for _, line := range commands {
		words, err := splitCommand(line)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		c := Command{}
		root := c.root()
		cmd, rest, err := root.Find(words[1:])
		if err != nil || cmd == root {
			t.Errorf("%s: no such command (%v)", line, err)
			continue
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if cmd.Args != nil {
			if err := cmd.Args(cmd, cmd.Flags().Args()); err != nil {
				t.Errorf("%s: %v", line, err)
			}
		}
	}
}
