package judgetest

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// TextOf is raw as Checked text when vouched and raw is JSON, as a
// message's parse leaves its params and result; else the zero Checked,
// which has the readers check raw themselves.
func TextOf(raw []byte, vouched bool) rawjson.Checked {
	if !vouched {
		return rawjson.Checked{}
	}
	c, _ := rawjson.Check(raw)
	return c
}

// CorpusTrace is one annotated trace of corpus/: its header says what the
// judge must find in it, and nothing else may be found.
type CorpusTrace struct {
	Path string
	Dir  string // violations, good, recorded or bare
	// Violation is set for a trace of violations and its bare twin.
	Violation bool
	Name      string
	Revisions []string
	Party     spec.Party
	Expect    map[string]bool // "REV CLAUSE outcome" lines
	// WireInvalid is set by a "# wire: invalid" header: the trace holds
	// messages its revision's JSON Schema refuses.
	WireInvalid bool
}

// CorpusRoot is the corpus folder at the top of the module, found from
// this file's folder up, so it holds wherever the file sits.
func CorpusRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "corpus")
		}
		if dir == filepath.Dir(dir) {
			t.Fatalf("no go.mod above %s", file)
		}
	}
}

// LoadCorpus reads the header of every trace of the corpus folders.
func LoadCorpus(t *testing.T) []*CorpusTrace {
	var out []*CorpusTrace
	for _, dir := range []string{"violations", "good", "recorded", "bare"} {
		paths, _ := filepath.Glob(filepath.Join(CorpusRoot(t), dir, "*.jsonl"))
		for _, p := range paths {
			out = append(out, parseHeader(t, p, dir))
		}
	}
	if len(out) == 0 {
		t.Fatal("no corpus traces found")
	}
	return out
}

// parseHeader reads the '#' lines at the top of a corpus trace:
//
//	# revision: 2026-07-28      judge under this revision (repeatable)
//	# party: server             scope the verdict
//	# expect: BASE-005 fail     a clause outcome that must be found (fail or warn);
//	#                           prefix the revision when several are judged
func parseHeader(t *testing.T, path, dir string) *CorpusTrace {
	name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	ct := &CorpusTrace{Path: path, Dir: dir, Name: name, Expect: map[string]bool{},
		Violation: dir == "violations" || (dir == "bare" && strings.HasPrefix(name, "violations-"))}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "#") {
			break
		}
		key, val, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "#")), ":")
		val = strings.TrimSpace(val)
		switch key {
		case "revision":
			ct.Revisions = append(ct.Revisions, val)
		case "party":
			ct.Party = spec.Party(val)
		case "expect":
			ct.Expect[ct.expectKey(val)] = true
		case "wire":
			ct.WireInvalid = val == "invalid"
		}
	}
	return ct
}

// expectKey makes "BASE-005 fail" into "REV BASE-005 fail".
func (ct *CorpusTrace) expectKey(val string) string {
	fields := strings.Fields(val)
	if len(fields) == 2 {
		rev := "*"
		if len(ct.Revisions) == 1 {
			rev = ct.Revisions[0]
		}
		return rev + " " + fields[0] + " " + fields[1]
	}
	return strings.Join(fields, " ")
}
