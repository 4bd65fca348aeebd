package trace

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

const twoEvents = `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"lifecycle","event":"transport-open","stream":"stdio"}
{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"method":"ping"}}
`

// readAll reads every event of trace and returns how many it read and the
// error it stopped on.
func readZeroTrace(trace []byte, maxLine int) (int, error) {
	r := NewReader(bytes.NewReader(trace), "t.jsonl")
	r.SetMaxLine(maxLine)
	for n := 0; ; n++ {
		if _, err := r.Next(); err != nil {
			return n, err
		}
	}
}

// The zeros a killed mapping recorder leaves after its last line are a torn
// end that says so, however long they run, and the events before them read.
func TestZeroTailIsTornEnd(t *testing.T) {
	for _, zeros := range []int{1, 4096, 1 << 20, 3 << 20} {
		trace := append([]byte(twoEvents), make([]byte, zeros)...)
		n, err := readZeroTrace(trace, DefaultMaxLine)
		var pe *ParseError
		if n != 2 || !errors.As(err, &pe) || !pe.Torn || pe.Line != 3 {
			t.Fatalf("%d zeros: read %d events, then %v; want 2, then a torn end at line 3", zeros, n, err)
		}
		if !strings.Contains(pe.Problem, "zero bytes") || strings.ContainsRune(pe.Problem, 0) {
			t.Errorf("%d zeros: problem %q should name the zero bytes without quoting them", zeros, pe.Problem)
		}
	}
}

// Zeros with anything after them are not a recorder's padding: an over-long
// line stays one, and a short line of zeros and text is torn as any other.
func TestZerosFollowedByTextAreNotPadding(t *testing.T) {
	long := append(append([]byte(twoEvents), make([]byte, 2<<20)...), "x"...)
	if _, err := readZeroTrace(long, DefaultMaxLine); err == nil || IsTorn(err) || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("zeros then text over the limit: %v, want the line-length error", err)
	}
	// The newline read with the over-long zeros ends them: not padding.
	ended := append(append(append([]byte(twoEvents), make([]byte, 300)...), '\n'), make([]byte, 10)...)
	if _, err := readZeroTrace(ended, 200); err == nil || IsTorn(err) || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("zeros over the limit, a newline, then zeros: %v, want the line-length error", err)
	}
	short := append(append([]byte(twoEvents), make([]byte, 10)...), "{"...)
	if _, err := readZeroTrace(short, DefaultMaxLine); !IsTorn(err) || strings.Contains(err.Error(), "zero bytes") {
		t.Errorf("zeros then text at the end: %v, want an ordinary torn line", err)
	}
	complete := append(append([]byte(twoEvents), make([]byte, 10)...), '\n')
	if _, err := readZeroTrace(complete, DefaultMaxLine); err == nil || IsTorn(err) || errors.Is(err, io.EOF) {
		t.Errorf("a whole line of zeros: %v, want a malformed line", err)
	}
}
