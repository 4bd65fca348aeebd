package trace

import (
	"bytes"
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
