package trace

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func readAll(t *testing.T, text string) ([]Event, error) {
	t.Helper()
	r := NewReader(strings.NewReader(text), "t.jsonl")
	var out []Event
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, *ev)
	}
}

const okLines = `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"lifecycle","event":"transport-open"}
{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"seq":4,"direction":"server-to-client","transport":"stdio","kind":"message","raw":"not json"}
`

func TestReaderKeepsLineNumbersAndSkipsComments(t *testing.T) {
	evs, err := readAll(t, "# a corpus note\n\n"+okLines)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 3 {
		t.Fatalf("got %d events, want 3", len(evs))
	}
	if evs[0].Line != 3 || evs[2].Line != 5 {
		t.Errorf("lines = %d, %d; want 3, 5", evs[0].Line, evs[2].Line)
	}
	if got := string(evs[2].Bytes()); got != "not json" {
		t.Errorf("raw bytes = %q", got)
	}
}

func TestReaderErrors(t *testing.T) {
	cases := []struct {
		name, text, want string
		line             int
		torn             bool
	}{
		{"not json", "hello\n", "not a trace event", 1, false},
		{"trailing text", `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"http"} x` + "\n", "unexpected text after the JSON object", 1, false},
		{"missing seq", `{"direction":"client-to-server","transport":"stdio","kind":"http"}` + "\n", `missing or negative "seq"`, 1, false},
		{"seq not increasing", okLines + `{"seq":4,"direction":"client-to-server","transport":"stdio","kind":"http"}` + "\n", `"seq" 4 does not increase on 4 at line 3`, 4, false},
		{"bad direction", `{"seq":0,"direction":"up","transport":"stdio","kind":"http"}` + "\n", `unknown "direction" "up"`, 1, false},
		{"missing transport", `{"seq":0,"direction":"client-to-server","kind":"http"}` + "\n", `missing "transport"`, 1, false},
		{"bad kind", `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"x"}` + "\n", `unknown "kind" "x"`, 1, false},
		{"message without payload", `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"message"}` + "\n", `no "payload"`, 1, false},
		{"lifecycle without event", `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"lifecycle"}` + "\n", `no "event"`, 1, false},
		{"wrong type", `{"seq":"0","direction":"client-to-server","transport":"stdio","kind":"http"}` + "\n", `field "seq" should be int64`, 1, false},
		{"torn last line", okLines + `{"seq":5,"direction":"client-to-`, "torn final line", 4, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readAll(t, tc.text)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if !strings.Contains(pe.Problem, tc.want) || pe.Line != tc.line || pe.Torn != tc.torn {
				t.Errorf("got %q line %d torn %v; want %q line %d torn %v", pe.Problem, pe.Line, pe.Torn, tc.want, tc.line, tc.torn)
			}
			if !strings.HasPrefix(err.Error(), "t.jsonl:") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestReaderAcceptsFinalLineWithoutNewline(t *testing.T) {
	evs, err := readAll(t, strings.TrimSuffix(okLines, "\n"))
	if err != nil || len(evs) != 3 {
		t.Fatalf("got %d events, err %v", len(evs), err)
	}
}

func TestReaderLineLimit(t *testing.T) {
	r := NewReader(strings.NewReader(okLines+`{"seq":9,"direction":"client-to-server","transport":"stdio","kind":"message","raw":"`+strings.Repeat("x", 300)+`"}`+"\n"), "big.jsonl")
	r.SetMaxLine(200)
	var err error
	for err == nil {
		_, err = r.Next()
	}
	if !strings.Contains(err.Error(), "big.jsonl:4: line is longer than 200 bytes") {
		t.Fatalf("err = %v", err)
	}
	if _, again := r.Next(); again != err {
		t.Errorf("a second Next returned %v, want the same error", again)
	}
}

// A line nested far deeper than any decoder allows is refused with its line
// number, never handed to a parser that recurses until the stack runs out.
func TestReaderRefusesDeepNesting(t *testing.T) {
	const depth = 1_000_000
	deep := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	r := NewReader(strings.NewReader(okLines+`{"seq":9,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":`+deep+`}}}`+"\n"), "deep.jsonl")
	r.SetMaxLine(4 * depth)
	var err error
	for err == nil {
		_, err = r.Next()
	}
	if !strings.Contains(err.Error(), "deep.jsonl:4: not a trace event: JSON nested more than 10000 levels deep") {
		t.Fatalf("err = %v", err)
	}
}

// The reader must accept the core format of tomtom215/mcp-conformance: the
// example trace in its README (kept in ../shared, never copied here).
func TestReaderAcceptsMcpConformanceExample(t *testing.T) {
	path := filepath.Join(repoRoot(t), "..", "shared", "seeds", "003_362015f61db20767.txt")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("seed not available: %v", err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), `{"seq":`) {
			lines = append(lines, sc.Text())
		}
	}
	evs, err := readAll(t, strings.Join(lines, "\n")+"\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 4 || evs[3].Kind != KindMessage || evs[3].Direction != ClientToServer {
		t.Fatalf("read %d events: %+v", len(evs), evs)
	}
}

func repoRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}
