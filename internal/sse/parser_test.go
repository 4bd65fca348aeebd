package sse

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/sse/ssetest"
)

func TestSSEParserFields(t *testing.T) {
	stream := "\xEF\xBB\xBF: hello\nid: 1\nretry: 1500\ndata:\n\n" +
		"event: message\r\ndata: {\"a\":1}\r\ndata:  two\r\n\r\n" +
		"data: x\rid\r\r" +
		"retry: -1\nretry: 99999999999999999999\nid: a\x00\nevent: ping\n\n" +
		":keep-alive\n\n" +
		"data: unfinished"
	frames, pending := parseAll(t, stream, len(stream))
	want := []ssetest.Frame{
		{ID: ptr("1"), Retry: ptr(int64(1500))},
		{Data: "{\"a\":1}\n two", Event: "message"},
		{Data: "x", ID: ptr("")},
		{Event: "ping"},
		{},
	}
	if !reflect.DeepEqual(frames, want) {
		t.Errorf("frames:\n got %s\nwant %s", show(frames), show(want))
	}
	if pending != "data: unfinished" {
		t.Errorf("pending = %q, want the unfinished frame", pending)
	}
}

func TestSSEParserRawIsByteTransparent(t *testing.T) {
	for i, seed := range ssetest.Seeds {
		for _, chunk := range []int{1, 2, 3, 7, len(seed)} {
			var raw bytes.Buffer
			p := Parser{}
			feedChunks(&p, []byte(seed), chunk, func(f *Frame) error {
				raw.Write(f.Raw)
				return nil
			})
			raw.Write(p.Pending())
			if raw.String() != seed {
				t.Errorf("seed %d in chunks of %d: frames+pending = %q, want %q", i, chunk, raw.String(), seed)
			}
		}
	}
}

func TestSSEParserCRLFSplitAcrossReads(t *testing.T) {
	// The CR that ends a frame arrives alone; its LF opens the next read.
	var raws []string
	p := Parser{}
	for _, part := range []string{"data: a\r\n\r", "\ndata: b\r\n\r", "\n"} {
		if err := p.Feed([]byte(part), func(f *Frame) error {
			raws = append(raws, string(f.Raw)+"|"+string(f.Data))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"data: a\r\n\r|a", "\ndata: b\r\n\r|b"}
	if !reflect.DeepEqual(raws, want) {
		t.Errorf("frames = %q, want %q", raws, want)
	}
	if p.MidFrame() {
		t.Errorf("a lone LF after the last frame counted as an unfinished frame")
	}
}

func TestSSEParserLimit(t *testing.T) {
	for _, tc := range []struct{ stream, pending string }{
		{"data: 0123456789abcdef", "data: 0123456789abcdef"},
		{"data: a\n\ndata: 0123456789\n\ndata: b\n\n", "data: 0123456789\n\ndata: b\n\n"},
	} {
		p := Parser{Limit: 16}
		var emitted []string
		err := p.Feed([]byte(tc.stream), func(f *Frame) error {
			emitted = append(emitted, string(f.Data))
			return nil
		})
		if err != ErrFrameTooLarge {
			t.Fatalf("Feed(%q) = %v, want ErrFrameTooLarge", tc.stream, err)
		}
		if string(p.Pending()) != tc.pending || len(emitted) > 1 {
			t.Errorf("Feed(%q): emitted %q, pending %q; want the frames before the oversized one emitted and %q pending", tc.stream, emitted, p.Pending(), tc.pending)
		}
	}
}

// TestSSEParserLetsGoOfLargeBuffers: after a frame larger than the shrink
// threshold, the parser frees its buffer but keeps the next frame's fields.
func TestSSEParserLetsGoOfLargeBuffers(t *testing.T) {
	big := strings.Repeat("b", 2*shrinkAbove)
	p := Parser{}
	var got []string
	emit := func(f *Frame) error {
		got = append(got, string(f.Data))
		return nil
	}
	_ = p.Feed([]byte("data: "+big+"\ndata: "+big+"\n\nid: 9\ndata: small\n"), emit)
	if cap(p.buf) > shrinkAbove || cap(p.data) > shrinkAbove {
		t.Errorf("after the large frame the parser still holds %d and %d bytes of buffer", cap(p.buf), cap(p.data))
	}
	_ = p.Feed([]byte("\n"), emit)
	if len(got) != 2 || got[0] != big+"\n"+big || got[1] != "small" {
		t.Errorf("frames after the shrink: %d, last %.120q; want the large one then \"small\"", len(got), got[len(got)-1])
	}
}

func TestSSEParserMidFrame(t *testing.T) {
	for stream, want := range map[string]bool{
		"data: x\n\n":      false,
		"data: x\r\n\r\n":  false,
		"data: x\n":        true,
		"data: x":          true,
		": comment only\n": true,
		"":                 false,
	} {
		p := Parser{}
		_ = p.Feed([]byte(stream), func(*Frame) error { return nil })
		if got := p.MidFrame(); got != want {
			t.Errorf("MidFrame after %q = %v, want %v", stream, got, want)
		}
	}
}

// FuzzSSEParser checks the incremental parser against a whole-stream
// reference reading of the WHATWG rules, for any bytes cut at any points:
// the same frames, and frames plus pending bytes equal to the input; and
// Reader, reading the bytes so cut, against the reference's events.
func FuzzSSEParser(f *testing.F) {
	for _, seed := range ssetest.Seeds {
		f.Add([]byte(seed), []byte{1, 5, 200})
	}
	f.Fuzz(func(t *testing.T, stream, cuts []byte) {
		var (
			got []ssetest.Frame
			raw bytes.Buffer
		)
		p := Parser{}
		feedCuts(&p, stream, cuts, func(fr *Frame) error {
			got = append(got, toRef(fr))
			raw.Write(fr.Raw)
			return nil
		})
		raw.Write(p.Pending())
		if !bytes.Equal(raw.Bytes(), stream) {
			t.Fatalf("frames+pending = %q, want the input %q", raw.Bytes(), stream)
		}
		if want := ssetest.Frames(stream); !reflect.DeepEqual(got, want) {
			t.Fatalf("frames of %q:\n got %s\nwant %s", stream, show(got), show(want))
		}
		if got, want := readAll(stream, cuts), ssetest.Messages(stream); !reflect.DeepEqual(got, want) {
			t.Fatalf("Reader events of %q:\n got %q\nwant %q", stream, got, want)
		}
	})
}

// toRef is a frame's fields in comparable form.
func toRef(f *Frame) ssetest.Frame {
	return ssetest.Frame{Data: string(f.Data), ID: f.ID, Event: f.Event, Retry: f.Retry}
}

func show(fs []ssetest.Frame) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "{data=%q event=%q", f.Data, f.Event)
		if f.ID != nil {
			fmt.Fprintf(&b, " id=%q", *f.ID)
		}
		if f.Retry != nil {
			fmt.Fprintf(&b, " retry=%d", *f.Retry)
		}
		b.WriteString("} ")
	}
	return b.String()
}

func ptr[T any](v T) *T { return &v }

// parseAll feeds a stream in chunks and returns its frames and pending bytes.
func parseAll(t *testing.T, stream string, chunk int) ([]ssetest.Frame, string) {
	t.Helper()
	var frames []ssetest.Frame
	p := Parser{}
	feedChunks(&p, []byte(stream), chunk, func(f *Frame) error {
		frames = append(frames, toRef(f))
		return nil
	})
	return frames, string(p.Pending())
}

func feedChunks(p *Parser, stream []byte, chunk int, emit func(*Frame) error) {
	for len(stream) > 0 {
		n := min(chunk, len(stream))
		_ = p.Feed(stream[:n], emit)
		stream = stream[n:]
	}
}

// feedCuts feeds a stream in the reads an ssetest.CutReader cuts it into.
func feedCuts(p *Parser, stream, cuts []byte, emit func(*Frame) error) {
	r := &ssetest.CutReader{Data: stream, Cuts: cuts}
	buf := make([]byte, len(stream))
	for {
		n, err := r.Read(buf)
		if err != nil {
			return
		}
		_ = p.Feed(buf[:n], emit)
	}
}
