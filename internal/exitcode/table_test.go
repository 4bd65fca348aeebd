package exitcode

import (
	"strconv"
	"strings"
	"testing"
)

// The table holds each constant once, in order of code, each with a name
// and a meaning.
func TestTable(t *testing.T) {
	want := []int{OK, Fail, Usage, Malformed}
	got := Table()
	if len(got) != len(want) {
		t.Fatalf("the table has %d statuses, want %d", len(got), len(want))
	}
	for i, s := range got {
		if s.Code != want[i] || s.Name == "" || s.Meaning == "" {
			t.Errorf("status %d is %+v, want code %d with a name and a meaning", i, s, want[i])
		}
	}
	got[0].Meaning = "changed"
	if Table()[0].Meaning == "changed" {
		t.Error("Table returns the table itself, not a copy")
	}
}

func TestMeans(t *testing.T) {
	s := Means(Usage, "bad invocation")
	if s.Code != Usage || s.Name != "usage" || s.Meaning != "bad invocation" {
		t.Errorf("Means(Usage, ...) = %+v", s)
	}
	defer func() {
		if recover() == nil {
			t.Error("Means(42, ...) did not panic")
		}
	}()
	Means(42, "no such status")
}

// Format wraps each meaning under itself, within the width, and keeps
// every word.
func TestFormat(t *testing.T) {
	text := Format(Table()...)
	lines := strings.Split(text, "\n")
	for _, line := range lines {
		if len(line) > width {
			t.Errorf("line longer than %d: %q", width, line)
		}
		if !strings.HasPrefix(line, "    ") {
			t.Errorf("line not indented four spaces: %q", line)
		}
	}
	if !strings.HasPrefix(lines[0], "    0  ok         the verdict is pass") {
		t.Errorf("first line %q", lines[0])
	}
	var words []string
	for _, s := range Table() {
		words = append(words, strconv.Itoa(s.Code), s.Name)
		words = append(words, strings.Fields(s.Meaning)...)
	}
	if got, want := strings.Join(strings.Fields(text), " "), strings.Join(words, " "); got != want {
		t.Errorf("Format changed the words:\n got %s\nwant %s", got, want)
	}
	if got := Section(Means(OK, "done")); got != "Exit status:\n\n    0  ok  done" {
		t.Errorf("Section = %q", got)
	}
}
