// Package hostile is the peer under test at its worst: a stdio MCP server
// (hostile.cjs, Node.js) whose every string tries a trick on whoever
// prints it, and the checks that hold mcpverdict's output to what the
// server cannot do to it: forge a workflow command, put a raw control
// byte on a terminal, or break a report's XML or JSON.
package hostile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// Dir is the folder holding hostile.cjs and tricks.json, which must be
// copied together.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// Files are the server's files, by name.
func Files(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range []string{"hostile.cjs", "tricks.json"} {
		data, err := os.ReadFile(filepath.Join(Dir(), name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(data)
	}
	return out
}

// Commands lists the workflow commands in a log, as the Actions runner
// reads them: a line whose text, after leading white space, begins with
// "::" is a command, named up to the first space or "::"; between
// ::stop-commands::TOKEN and ::TOKEN:: none is read.
func Commands(log []byte) []string {
	var out []string
	stopped := ""
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := strings.TrimLeft(sc.Text(), " \t")
		if !strings.HasPrefix(line, "::") {
			continue
		}
		if stopped != "" {
			if strings.TrimRight(line, "\r") == "::"+stopped+"::" {
				stopped = ""
				out = append(out, "resume")
			}
			continue
		}
		name := line[2:]
		if i := strings.IndexAny(name, " :"); i >= 0 {
			name = name[:i]
		}
		if name == "stop-commands" {
			stopped = strings.TrimRight(line[len("::stop-commands::"):], "\r")
		}
		out = append(out, name)
	}
	return out
}

// CheckCommands fails the test when the log holds a workflow command not
// in allowed ("resume" is the end of a stop-commands).
func CheckCommands(t testing.TB, what string, log []byte, allowed ...string) {
	t.Helper()
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	for _, c := range Commands(log) {
		if !ok[c] {
			t.Errorf("%s: the runner would read a workflow command %q", what, c)
		}
	}
}

// CheckVisible fails the test on any byte a terminal would act on: C0
// controls other than tab and line feed, DEL, C1 controls, the
// bidirectional controls and the Unicode line and paragraph separators,
// and bytes that are not UTF-8.
func CheckVisible(t testing.TB, what string, data []byte) {
	t.Helper()
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		bad := (r == utf8.RuneError && size == 1) || (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f ||
			(r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x2028 || r == 0x2029
		if bad {
			t.Errorf("%s: a raw %U at byte %d: %q", what, r, i, around(data, i))
			return
		}
		i += size
	}
}

func around(data []byte, i int) []byte {
	lo, hi := max(0, i-40), min(len(data), i+40)
	return data[lo:hi]
}

// CheckXML fails the test unless data is one well-formed XML document.
func CheckXML(t testing.TB, what string, data []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Errorf("%s is not well-formed XML: %v", what, err)
			return
		}
	}
}

// CheckJSON fails the test unless data is JSON (one value, or JSON Lines).
func CheckJSON(t testing.TB, what string, data []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Errorf("%s is not JSON: %v", what, err)
			return
		}
	}
}

// CheckAnnotations fails the test unless every line of data is one of the
// github format's own annotations (::error, ::warning or ::notice): a
// trick that broke a line would start one of its own.
func CheckAnnotations(t testing.TB, what string, data []byte) {
	t.Helper()
	CheckCommands(t, what, data, "error", "warning", "notice")
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if !strings.HasPrefix(line, "::error ") && !strings.HasPrefix(line, "::warning ") && !strings.HasPrefix(line, "::notice ") {
			t.Errorf("%s: a line that is not one of mcpverdict's annotations: %.200q", what, line)
		}
	}
}
