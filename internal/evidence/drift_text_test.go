package evidence

import (
	"bytes"
	"strings"
	"testing"
)

// A tool's name and a field's values are the server's strings: the lines
// check prints of them hold no terminal escape and no line end of their own.
func TestDriftLinesAreSafeForATerminal(t *testing.T) {
	d := &Drift{Lockfile: "mcp.lock", Findings: []Finding{{
		Check: "changed", Tool: "evil\x1b]0;owned\x07\r\n::error::forged",
		Detail:  "input schema changed\u202e",
		Changes: []FieldChange{{Field: "description", Old: []byte(`"a"`), New: []byte("\"b\x1b[2J\"")}},
	}}}
	var buf bytes.Buffer
	d.WriteText(&buf)
	out := buf.String()
	if strings.ContainsAny(out, "\x1b\x07\r\u202e") {
		t.Fatalf("a raw control or bidi character reached the terminal: %q", out)
	}
	if lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); len(lines) != 1 {
		t.Fatalf("one finding printed as %d lines: %q", len(lines), out)
	}
}
