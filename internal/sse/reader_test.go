package sse

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/mcpverdict/mcpverdict/internal/sse/ssetest"
)

func TestReader(t *testing.T) {
	stream := ": comment\r\nid: 7\r\nretry: 1500\r\n\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\nevent: message\ndata: x\n\n"
	r := NewReader(strings.NewReader(stream), 0)
	data, err := r.Next()
	if err != nil || string(data) != "{\"a\":\n1}" || r.LastEventID() != "7" || r.Retry() != 1500 {
		t.Fatalf("first event %q, %v (last id %q, retry %d)", data, err, r.LastEventID(), r.Retry())
	}
	data, err = r.Next()
	if err != nil || string(data) != "x" {
		t.Fatalf("second event %q, %v", data, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("at the end of the stream Next = %v, want io.EOF", err)
	}
}

// TestReaderKeepsStateFrameByFrame: the last event ID and retry seen after
// each event are those of the frames up to it, not of later frames that
// arrived in the same read.
func TestReaderKeepsStateFrameByFrame(t *testing.T) {
	stream := "id: p\ndata: \n\nid: 1\ndata: a\n\ndata: b\n\nid: 3\nretry: 20\ndata: c\n\nid\n\ndata: d\n\nid: 5\ndata: unfinished"
	r := NewReader(strings.NewReader(stream), 0)
	var got []string
	for {
		data, err := r.Next()
		got = append(got, string(data)+"|"+r.LastEventID())
		if err != nil {
			break
		}
	}
	want := []string{"a|1", "b|1", "c|3", "d|", "|"}
	if !reflect.DeepEqual(got, want) || r.Retry() != 20 {
		t.Errorf("events|last id = %q, retry %d; want %q, retry 20", got, r.Retry(), want)
	}
}

func TestReaderErrors(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: cut"), iotest.ErrReader(boom)), 0)
	if data, err := r.Next(); err != nil || string(data) != "a" {
		t.Fatalf("Next = %q, %v; want the frame read before the error", data, err)
	}
	if _, err := r.Next(); err != boom {
		t.Errorf("Next = %v, want the read error", err)
	}
	r = NewReader(strings.NewReader("data: a\n\ndata: 0123456789abcdef\n\ndata: b\n\n"), 16)
	if data, err := r.Next(); err != nil || string(data) != "a" {
		t.Fatalf("Next = %q, %v; want the frame before the oversized one", data, err)
	}
	for range 2 {
		if _, err := r.Next(); err != ErrFrameTooLarge {
			t.Errorf("Next = %v, want ErrFrameTooLarge from the oversized frame on", err)
		}
	}
}

// readAll reads a stream with a Reader over an ssetest.CutReader and
// returns the data of each event.
func readAll(stream, cuts []byte) []string {
	r := NewReader(&ssetest.CutReader{Data: stream, Cuts: cuts}, 0)
	var events []string
	for {
		data, err := r.Next()
		if err != nil {
			return events
		}
		events = append(events, string(data))
	}
}
