package trace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	// segmentio's decoder is API-compatible with encoding/json and faster
	// on trace lines, which the judge reads by the million (BenchmarkReader).
	"github.com/segmentio/encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// DefaultMaxLine is the longest trace line the reader accepts unless told
// otherwise. A longer line is almost always a file that is not a trace.
const DefaultMaxLine = 1 << 20

// ParseError says what is wrong with one line of a trace.
type ParseError struct {
	File    string
	Line    int
	Problem string
	// Torn is set when the problem is a final line cut off before its end,
	// as a recorder killed mid-write leaves it; the events before it are whole.
	Torn bool
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Problem)
}

// IsTorn reports whether err is a torn final line.
func IsTorn(err error) bool {
	var pe *ParseError
	return errors.As(err, &pe) && pe.Torn
}

// Reader streams events from a trace, one line at a time, keeping each
// event's line number. Blank lines and lines starting with '#' (corpus
// annotations) are skipped. Unknown fields are ignored so that traces from
// newer recorders still read.
type Reader struct {
	name    string
	lines   lineBlocks
	maxLine int
	line    int
	lastSeq int64
	seqLine int
	started bool
	err     error
	slab    eventSlab
}

// NewReader reads the trace in r; name is used in errors.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{name: name, lines: lineBlocks{src: r}, maxLine: DefaultMaxLine}
}

// SetMaxLine changes the line length limit.
func (r *Reader) SetMaxLine(n int) { r.maxLine = n }

// Next returns the next event, io.EOF at the end, or a *ParseError. After an
// error every later call returns the same error.
func (r *Reader) Next() (*Event, error) {
	if r.err != nil {
		return nil, r.err
	}
	ev, err := r.next()
	if err != nil {
		r.err = err
	}
	return ev, err
}

func (r *Reader) next() (*Event, error) {
	for {
		line, complete, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if !complete && allZero(line) {
			return nil, r.zeroTail(int64(len(line)))
		}
		trimmed := trimLine(line)
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		ev, perr := r.decode(trimmed)
		if perr != nil {
			if !complete {
				return nil, r.fail("torn final line: the trace ends mid-event (%s); the events before it are whole", perr.Problem).torn()
			}
			return nil, perr
		}
		return ev, nil
	}
}

// trimLine is bytes.TrimSpace for a line, which costs a test of its ends
// for a line as recorders write it, an object from its first byte to its
// last.
func trimLine(line []byte) []byte {
	if len(line) > 0 && line[0] == '{' && line[len(line)-1] == '}' {
		return line
	}
	return bytes.TrimSpace(line)
}

// readLine returns the next line without its newline; complete is false for
// a final line with no newline after it. The line is the event's to keep.
func (r *Reader) readLine() (line []byte, complete bool, err error) {
	line, complete, err = r.lines.line(r.maxLine)
	switch {
	case err == nil:
		r.line++
		return line, complete, nil
	case errors.Is(err, errLineTooLong):
		r.line++
		if !complete && allZero(line) {
			if torn := r.drainZeros(int64(len(line))); torn != nil {
				return nil, false, torn
			}
		}
		return nil, false, r.fail("line is longer than %d bytes: this is not a trace, or raise the limit with --max-line", r.maxLine)
	case errors.Is(err, io.EOF):
		return nil, false, io.EOF
	default:
		return nil, false, fmt.Errorf("%s: read: %w", r.name, err)
	}
}

func (r *Reader) decode(b []byte) (*Event, *ParseError) {
	// The event keeps sub-slices of its line (payload, raw strings), which
	// the line reader never reuses; its capacity ends with it, so that an
	// append to one cannot reach the next.
	line := b[:len(b):len(b)]
	ev := r.slab.newEvent()
	if decodeLine(line, ev, &r.slab) || decodeFastAfresh(line, ev) {
		// The fast paths' scans checked the grammar of every member's value.
		ev.asRead = rawjson.Scanned(ev.Payload)
	} else {
		*ev = Event{Seq: -1}
		// segmentio's parser recurses with no depth limit: a hostile line
		// nested deeply enough would exhaust the stack, a fatal error.
		if !rawjson.ShallowEnough(line) {
			return nil, r.fail("not a trace event: JSON nested more than %d levels deep", rawjson.MaxDepth)
		}
		rest, err := json.Parse(line, ev, json.ZeroCopy)
		if err != nil {
			return nil, r.fail("not a trace event: %s", jsonProblem(err))
		}
		if len(bytes.TrimSpace(rest)) > 0 {
			return nil, r.fail("not a trace event: unexpected text after the JSON object")
		}
		// The general decoder's checking of a raw value is its own affair;
		// the rare line it reads has its payload checked here.
		ev.asRead, _ = rawjson.Check(ev.Payload)
	}
	ev.Line = r.line
	if perr := r.validate(ev); perr != nil {
		return nil, perr
	}
	r.lastSeq, r.seqLine, r.started = ev.Seq, r.line, true
	return ev, nil
}

// decodeFastAfresh is decodeFast on an event that decodeLine may have
// filled in part.
func decodeFastAfresh(line []byte, ev *Event) bool {
	*ev = Event{Seq: -1}
	return decodeFast(line, ev)
}

func (r *Reader) validate(ev *Event) *ParseError {
	if ev.Seq < 0 {
		return r.fail(`missing or negative "seq": every event needs a non-negative integer seq`)
	}
	if r.started && ev.Seq <= r.lastSeq {
		return r.fail(`"seq" %d does not increase on %d at line %d: events must be in recorded order`, ev.Seq, r.lastSeq, r.seqLine)
	}
	if problem := ev.check(); problem != "" {
		return r.fail("%s", problem)
	}
	return nil
}

func (r *Reader) fail(format string, args ...any) *ParseError {
	return &ParseError{File: r.name, Line: r.line, Problem: fmt.Sprintf(format, args...)}
}

func (e *ParseError) torn() *ParseError { e.Torn = true; return e }

func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("field %q should be %s, not a JSON %s", te.Field, te.Type, te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, err)
	}
	return err.Error()
}

// ReadFile reads a whole trace file. It stops at the first malformed line;
// the events before it are returned with the error.
func ReadFile(path string) ([]Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var events []Event
	r := NewReader(f, path)
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return events, nil
		}
		if err != nil {
			return events, err
		}
		events = append(events, *ev)
	}
}
