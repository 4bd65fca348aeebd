package trace

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestWriterSequencesConcurrentRecords(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := Event{Direction: ClientToServer, Transport: Stdio, Kind: KindMessage}
			ev.SetBody([]byte(`{"jsonrpc":"2.0","method":"notifications/x"}`))
			if _, err := w.Record(ev); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	evs, err := readAll(t, buf.String())
	if err != nil {
		t.Fatal(err)
	}
	for i, ev := range evs {
		if ev.Seq != int64(i) {
			t.Fatalf("event %d has seq %d", i, ev.Seq)
		}
	}
	if len(evs) != 50 {
		t.Fatalf("got %d events", len(evs))
	}
	if _, err := w.Record(Event{}); err != ErrClosed {
		t.Errorf("Record after Close = %v, want ErrClosed", err)
	}
}

func TestWriterKeepsBodiesExactly(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	bodies := [][]byte{
		[]byte("{\"jsonrpc\":\"2.0\",\n \"method\":\"a<b>&c\"}"),
		[]byte(`{"half":`),
		{0xff, 0xfe, 'x'},
	}
	for _, b := range bodies {
		ev := Event{Direction: ServerToClient, Transport: Stdio, Kind: KindMessage}
		ev.SetBody(b)
		if _, err := w.Record(ev); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if strings.Contains(buf.String(), `\u003c`) {
		t.Errorf("writer escaped HTML: %s", buf.String())
	}
	evs, err := readAll(t, buf.String())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"jsonrpc":"2.0","method":"a<b>&c"}`, `{"half":`, "\xff\xfex"}
	for i, ev := range evs {
		if got := string(ev.Bytes()); got != want[i] {
			t.Errorf("body %d = %q, want %q", i, got, want[i])
		}
	}
}

// BenchmarkRecordMessage is the recorder's work per message: the body
// kept, the line encoded and written, to nowhere and to a file, for a small
// message and a 64 KiB tool result.
func BenchmarkRecordMessage(b *testing.B) {
	small := []byte(`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"hello"}],"isError":false}}`)
	large := []byte(`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"` + strings.Repeat(`lorem \"ipsum\" dolor `, 64<<10/22) + `"}]}}`)
	f, err := os.Create(filepath.Join(b.TempDir(), "t.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for _, size := range []struct {
		name string
		body []byte
	}{{"small", small}, {"64KiB", large}} {
		for _, out := range []struct {
			name string
			w    io.Writer
		}{{"discard", io.Discard}, {"file", f}} {
			b.Run(size.name+"/"+out.name, func(b *testing.B) {
				w := NewWriter(out.w)
				b.ReportAllocs()
				b.SetBytes(int64(len(size.body)))
				for b.Loop() {
					ev := Event{Direction: ServerToClient, Transport: Stdio, Kind: KindMessage, Stream: "stdio"}
					ev.SetBody(size.body)
					if _, err := w.Record(ev); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// failAfter accepts n writes, then fails every one.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, io.ErrShortWrite
	}
	f.n--
	return len(p), nil
}

func TestWriterKeepsTheFirstWriteError(t *testing.T) {
	w := NewWriter(&failAfter{n: 1})
	ev := Event{Direction: ClientToServer, Transport: Stdio, Kind: KindMessage}
	ev.SetBody([]byte(`{"jsonrpc":"2.0","method":"a"}`))
	if seq, err := w.Record(ev); seq != 0 || err != nil {
		t.Fatalf("first Record = %d, %v", seq, err)
	}
	// A line that was not written takes no seq: the next one written would
	// follow the last on file.
	for range 2 {
		if seq, err := w.Record(ev); seq != 1 || err == nil {
			t.Fatalf("Record into a failing file = %d, %v; want seq 1 and an error", seq, err)
		}
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "event 1") {
		t.Errorf("Close = %v, want the first write error", err)
	}
}

// countingWriter counts the writes it is given.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

func TestWriterRecordsABatchWithOneWrite(t *testing.T) {
	var out countingWriter
	w := NewWriter(&out)
	if _, err := w.Record(Event{Direction: ClientToServer, Transport: Stdio, Kind: KindLifecycle, Event: TransportOpen}); err != nil {
		t.Fatal(err)
	}
	batch := make([]Event, 3)
	for i := range batch {
		batch[i] = Event{Direction: ClientToServer, Transport: Stdio, Kind: KindMessage}
		batch[i].SetBody([]byte(`{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"ping"}`))
	}
	if first, err := w.RecordAll(batch); first != 1 || err != nil {
		t.Fatalf("RecordAll = %d, %v; want 1, nil", first, err)
	}
	w.Close()
	if out.writes != 2 {
		t.Errorf("%d writes, want 2 (one per call)", out.writes)
	}
	evs, err := readAll(t, out.String())
	if err != nil {
		t.Fatal(err)
	}
	for i, ev := range evs {
		if ev.Seq != int64(i) {
			t.Errorf("line %d has seq %d", i, ev.Seq)
		}
	}
	if len(evs) != 4 || evs[1].MonoNS != evs[3].MonoNS {
		t.Errorf("want 4 events, the batch sharing one mono_ns: %+v", evs)
	}
}

// shortWriter writes the first n bytes it is given, then fails.
type shortWriter struct {
	bytes.Buffer
	n int
}

func (s *shortWriter) Write(p []byte) (int, error) {
	if len(p) <= s.n {
		s.n -= len(p)
		return s.Buffer.Write(p)
	}
	k, _ := s.Buffer.Write(p[:s.n])
	s.n = 0
	return k, io.ErrShortWrite
}

// TestWriterNumbersPastLinesAPartialWriteLeft: lines that reached the file
// whole keep their seq, so the next line does not repeat one.
func TestWriterNumbersPastLinesAPartialWriteLeft(t *testing.T) {
	ev := Event{Direction: ClientToServer, Transport: Stdio, Kind: KindMessage, MonoNS: 1}
	ev.SetBody([]byte(`{"jsonrpc":"2.0","method":"a"}`))
	line, _ := appendEvent(nil, &ev)
	out := &shortWriter{n: 2*len(line) + 5}
	w := NewWriter(out)
	if _, err := w.RecordAll([]Event{ev, ev, ev}); err == nil {
		t.Fatal("RecordAll into a short write succeeded")
	}
	out.n = 1 << 20
	if seq, err := w.Record(ev); seq != 2 || err != nil {
		t.Errorf("Record after a partial batch = %d, %v; want seq 2", seq, err)
	}
}

// oneByOne is a Recorder without RecordAll.
type oneByOne struct{ evs []Event }

func (o *oneByOne) Record(ev Event) (int64, error) {
	o.evs = append(o.evs, ev)
	return int64(len(o.evs) - 1), nil
}

func TestRecordAllFallsBackToRecord(t *testing.T) {
	var rec oneByOne
	if err := RecordAll(&rec, []Event{{Reason: "a"}, {Reason: "b"}}); err != nil {
		t.Fatal(err)
	}
	if len(rec.evs) != 2 || rec.evs[0].Reason != "a" || rec.evs[1].Reason != "b" {
		t.Errorf("recorded %+v", rec.evs)
	}
}
