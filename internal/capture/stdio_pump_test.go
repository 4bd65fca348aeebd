package capture

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// chunkReader returns its chunks one Read at a time, as a pipe would.
type chunkReader struct{ chunks [][]byte }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	if c.chunks[0] = c.chunks[0][n:]; len(c.chunks[0]) == 0 {
		c.chunks = c.chunks[1:]
	}
	return n, nil
}

// orderRecorder keeps each recorded event with the bytes the destination
// had received at the moment it was recorded.
type orderRecorder struct {
	dst       *bytes.Buffer
	events    []trace.Event
	forwarded []string
}

func (o *orderRecorder) Record(ev trace.Event) (int64, error) {
	o.events = append(o.events, ev)
	o.forwarded = append(o.forwarded, o.dst.String())
	return int64(len(o.events) - 1), nil
}

func pumpChunks(chunks ...string) (*orderRecorder, pumpEnd) {
	return pumpLimited(DefaultMaxLine, chunks...)
}

// pumpLimited is pumpChunks with a line limit.
func pumpLimited(maxLine int, chunks ...string) (*orderRecorder, pumpEnd) {
	var dst bytes.Buffer
	rec := &orderRecorder{dst: &dst}
	src := &chunkReader{}
	for _, c := range chunks {
		src.chunks = append(src.chunks, []byte(c))
	}
	end := newLinePump(trace.ServerToClient, src, &dst, &stdioSession{rec: rec}, maxLine).run()
	return rec, end
}

func bodies(events []trace.Event) []string {
	var out []string
	for _, ev := range events {
		out = append(out, string(ev.Bytes()))
	}
	return out
}

func TestPumpRecordsEachMessageBeforeItsNewlineIsForwarded(t *testing.T) {
	rec, _ := pumpChunks(`{"id":1}`+"\n"+`{"id":`, `2}`+"\n"+`{"id":3}`+"\n", `{"id":4}`+"\n")
	if got, want := bodies(rec.events), []string{`{"id":1}`, `{"id":2}`, `{"id":3}`, `{"id":4}`}; !equalStrings(got, want) {
		t.Fatalf("recorded %q, want %q", got, want)
	}
	for i, fwd := range rec.forwarded {
		if n := strings.Count(fwd, "\n"); n > i {
			t.Errorf("message %d was recorded after its newline was forwarded (forwarded so far: %q)", i, fwd)
		}
	}
}

func TestPumpForwardsAnUnfinishedLineAtOnce(t *testing.T) {
	var dst bytes.Buffer
	src := &chunkReader{chunks: [][]byte{[]byte(`{"id":1,`)}}
	p := newLinePump(trace.ClientToServer, src, &dst, &stdioSession{}, DefaultMaxLine)
	buf := make([]byte, 64)
	n, _ := src.Read(buf)
	p.forward(buf[:n])
	if dst.String() != `{"id":1,` {
		t.Fatalf("after a chunk with no newline the destination holds %q, want the chunk itself", dst.String())
	}
}

func TestPumpSkipsBlankLinesButForwardsThem(t *testing.T) {
	var dst bytes.Buffer
	rec := &orderRecorder{dst: &dst}
	in := "\n  \n{\"id\":1}\r\n\t\n"
	newLinePump(trace.ClientToServer, strings.NewReader(in), &dst, &stdioSession{rec: rec}, DefaultMaxLine).run()
	if got := bodies(rec.events); !equalStrings(got, []string{`{"id":1}`}) {
		t.Errorf("recorded %q, want only the one message", got)
	}
	if dst.String() != in {
		t.Errorf("forwarded %q, want %q unchanged", dst.String(), in)
	}
}

func TestPumpKeepsInvalidJSONAsRaw(t *testing.T) {
	rec, _ := pumpChunks("not json\n", "{\"id\":\xff}\n")
	if len(rec.events) != 2 || rec.events[0].Raw == nil || *rec.events[0].Raw != "not json" {
		t.Fatalf("first event %+v, want raw %q", rec.events, "not json")
	}
	if rec.events[1].RawBase64 == "" || string(rec.events[1].Bytes()) != "{\"id\":\xff}" {
		t.Errorf("second event %+v, want the non-UTF-8 bytes as raw_base64", rec.events[1])
	}
}

func TestPumpRecordsAPartialFinalLineAsRaw(t *testing.T) {
	rec, end := pumpChunks(`{"id":1}`+"\n", `{"id":2,"res`)
	last := rec.events[len(rec.events)-1]
	if last.Raw == nil || *last.Raw != `{"id":2,"res` || end.partial != len(`{"id":2,"res`) {
		t.Fatalf("last event %+v, end %+v; want the partial bytes as raw", last, end)
	}
	if rec.forwarded[len(rec.forwarded)-1] != `{"id":1}`+"\n"+`{"id":2,"res` {
		t.Errorf("the partial bytes were not forwarded before the stream ended")
	}
}

func TestPumpCompleteJSONWithoutNewlineIsStillPartial(t *testing.T) {
	rec, end := pumpChunks(`{"id":1}`)
	if len(rec.events) != 1 || rec.events[0].Raw == nil || end.partial == 0 {
		t.Fatalf("events %+v, end %+v: a message whose newline never came must be raw and partial", rec.events, end)
	}
}

// TestPumpCutsLinesLongerThanMaxLine: a line up to the limit is a message;
// a longer one, whether it outgrows the limit within one read or across
// several, is raw holding its first maxLine bytes (fewer rather than split
// a character), recorded once and before its newline is forwarded, and
// the line after it is a message again.
func TestPumpCutsLinesLongerThanMaxLine(t *testing.T) {
	rec, end := pumpLimited(8,
		`{"a":12}`+"\n"+`0123456789`+"\n", // at the limit, then past it in one read
		`abcde`, `fghij`, `klm`+"\n",      // past it across reads
		`{"b":1}`+"\n"+`1234567é`+"\n", // a cut that would split the é
		`0123456789`)                   // past it when the stream ends
	want := []string{`{"a":12}`, `01234567`, `abcdefgh`, `{"b":1}`, `1234567`, `01234567`}
	if got := bodies(rec.events); !equalStrings(got, want) {
		t.Fatalf("recorded %q, want %q", got, want)
	}
	for i, ev := range rec.events {
		if i != 0 && i != 3 && ev.Raw == nil {
			t.Errorf("event %d %+v: want a cut line as raw text", i, ev)
		}
	}
	if fwd := rec.forwarded[2]; strings.Contains(fwd, "klm") {
		t.Errorf("the cut line abcde... was recorded after its end was forwarded (%q)", fwd)
	}
	if end.partial != len(`0123456789`) {
		t.Errorf("the stream ended %d bytes into a line, want %d", end.partial, len(`0123456789`))
	}
}

type failingWriter struct{ writes int }

func (f *failingWriter) Write(p []byte) (int, error) {
	f.writes++
	return 0, errors.New("broken pipe")
}

func TestPumpKeepsRecordingAfterTheDestinationFails(t *testing.T) {
	dst := &failingWriter{}
	var events []trace.Event
	rec := recorderFunc(func(ev trace.Event) { events = append(events, ev) })
	src := &chunkReader{chunks: [][]byte{[]byte("{\"id\":1}\n"), []byte("{\"id\":2}\n")}}
	end := newLinePump(trace.ServerToClient, src, dst, &stdioSession{rec: rec}, DefaultMaxLine).run()
	if len(events) != 2 || end.writeErr == nil || dst.writes != 1 {
		t.Fatalf("events %d, end %+v, writes %d: want both recorded, the error kept, no write after it", len(events), end, dst.writes)
	}
}

type recorderFunc func(trace.Event)

func (f recorderFunc) Record(ev trace.Event) (int64, error) { f(ev); return 0, nil }

// FuzzLinePump checks, for any bytes split into any chunks, that the
// destination receives exactly the input and that the recorded messages
// are its non-blank lines, the last one raw when it has no newline.
func FuzzLinePump(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n{\"b\":2}\nx"), uint8(3))
	f.Add([]byte("\r\n  \n{}"), uint8(1))
	f.Add([]byte("\u00a0\n"), uint8(2))
	f.Fuzz(func(t *testing.T, in []byte, step uint8) {
		var chunks []string
		for rest, n := in, int(step)%7+1; len(rest) > 0; rest = rest[min(n, len(rest)):] {
			chunks = append(chunks, string(rest[:min(n, len(rest))]))
		}
		rec, _ := pumpChunks(chunks...)
		if got := rec.dst.String(); got != string(in) {
			t.Fatalf("forwarded %q, want %q", got, in)
		}
		want := nonBlankLines(in)
		if len(rec.events) != len(want) {
			t.Fatalf("recorded %d messages, want %d (%q)", len(rec.events), len(want), want)
		}
	})
}

func nonBlankLines(in []byte) []string {
	var out []string
	for _, line := range strings.SplitAfter(string(in), "\n") {
		if strings.Trim(line, " \t\r\n") != "" { // JSON's whitespace, spelled out apart from isBlank
			out = append(out, line)
		}
	}
	return out
}

func equalStrings(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}

// batchOrderRecorder is an orderRecorder that also takes batches, noting
// the size of each.
type batchOrderRecorder struct {
	orderRecorder
	batches []int
}

func (b *batchOrderRecorder) RecordAll(evs []trace.Event) (int64, error) {
	b.batches = append(b.batches, len(evs))
	first := int64(len(b.events))
	for _, ev := range evs {
		b.Record(ev)
	}
	return first, nil
}

func TestPumpRecordsTheMessagesOfOneReadTogetherBeforeForwardingThem(t *testing.T) {
	var dst bytes.Buffer
	rec := &batchOrderRecorder{orderRecorder: orderRecorder{dst: &dst}}
	first := `{"id":1}` + "\n \n" + `{"id":2}` + "\n" + `{"id":3}` + "\n" + `{"id"`
	src := &chunkReader{chunks: [][]byte{[]byte(first), []byte(`:4}` + "\n")}}
	newLinePump(trace.ClientToServer, src, &dst, &stdioSession{rec: rec}, DefaultMaxLine).run()
	if got, want := bodies(rec.events), []string{`{"id":1}`, `{"id":2}`, `{"id":3}`, `{"id":4}`}; !equalStrings(got, want) {
		t.Fatalf("recorded %q, want %q", got, want)
	}
	if len(rec.batches) != 2 || rec.batches[0] != 3 || rec.batches[1] != 1 {
		t.Errorf("batches %v, want [3 1]: one per read, blank lines left out", rec.batches)
	}
	if want := []string{"", "", "", first}; !equalStrings(rec.forwarded, want) {
		t.Errorf("forwarded when each message was recorded: %q, want %q", rec.forwarded, want)
	}
}
