package capture

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sseSeeds are event streams as real servers write them, plus the corners
// of the WHATWG rules.
var sseSeeds = []string{
	// server-everything (TypeScript SDK): priming event, then a message.
	"id: a249cb5e-1aa1-425e-aa1b-b51f6a4d2642\ndata: \n\nevent: message\nid: 8756cc1e\ndata: {\"result\":{},\"jsonrpc\":\"2.0\",\"id\":1}\n\n",
	// Go SDK: event, id, data.
	"event: message\nid: 0_0\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[]}}\n\n",
	// priming with a retry hint, CRLF line ends, a keep-alive comment.
	"id: 7\r\nretry: 3000\r\ndata:\r\n\r\n:\r\n\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\r\n\r\n",
	// bare CR line ends, multi-line data, a BOM.
	"\xEF\xBB\xBFdata: line one\rdata:line two\r\r",
	// fields without a value, unknown fields, a bad retry, an id with NUL.
	"data\nid\nevent\nretry: 12a\nfoo: bar\n\nid: a\x00b\ndata: x\n\n",
	// a stream cut in the middle of a frame.
	"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"res",
}

func TestSSEParserFields(t *testing.T) {
	stream := "\xEF\xBB\xBF: hello\nid: 1\nretry: 1500\ndata:\n\n" +
		"event: message\r\ndata: {\"a\":1}\r\ndata:  two\r\n\r\n" +
		"data: x\rid\r\r" +
		"retry: -1\nretry: 99999999999999999999\nid: a\x00\nevent: ping\n\n" +
		":keep-alive\n\n" +
		"data: unfinished"
	frames, pending := parseAll(t, stream, len(stream))
	want := []refFrame{
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
	for i, seed := range sseSeeds {
		for _, chunk := range []int{1, 2, 3, 7, len(seed)} {
			var raw bytes.Buffer
			p := sseParser{}
			feedChunks(&p, []byte(seed), chunk, func(f *sseFrame) error {
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
	p := sseParser{}
	for _, part := range []string{"data: a\r\n\r", "\ndata: b\r\n\r", "\n"} {
		if err := p.Feed([]byte(part), func(f *sseFrame) error {
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
		p := sseParser{limit: 16}
		var emitted []string
		err := p.Feed([]byte(tc.stream), func(f *sseFrame) error {
			emitted = append(emitted, string(f.Data))
			return nil
		})
		if err != errFrameTooLarge {
			t.Fatalf("Feed(%q) = %v, want errFrameTooLarge", tc.stream, err)
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
	p := sseParser{}
	var got []string
	emit := func(f *sseFrame) error {
		got = append(got, string(f.Data))
		return nil
	}
	_ = p.Feed([]byte("data: "+big+"\ndata: "+big+"\n\nid: 9\ndata: small\n"), emit)
	if cap(p.buf) > shrinkAbove || cap(p.data) > shrinkAbove {
		t.Errorf("after the large frame the parser still holds %d and %d bytes of buffer", cap(p.buf), cap(p.data))
	}
	_ = p.Feed([]byte("\n"), emit)
	if len(got) != 2 || got[0] != big+"\n"+big || got[1] != "small" {
		t.Errorf("frames after the shrink: %d, last %q; want the large one then \"small\"", len(got), clip(got[len(got)-1]))
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
		p := sseParser{}
		_ = p.Feed([]byte(stream), func(*sseFrame) error { return nil })
		if got := p.MidFrame(); got != want {
			t.Errorf("MidFrame after %q = %v, want %v", stream, got, want)
		}
	}
}

// FuzzSSEParser checks the incremental parser against a whole-stream
// reference reading of the WHATWG rules, for any bytes cut at any points:
// the same frames, and frames plus pending bytes equal to the input.
func FuzzSSEParser(f *testing.F) {
	for _, seed := range sseSeeds {
		f.Add([]byte(seed), []byte{1, 5, 200})
	}
	f.Fuzz(func(t *testing.T, stream, cuts []byte) {
		var (
			got []refFrame
			raw bytes.Buffer
		)
		p := sseParser{}
		feedCuts(&p, stream, cuts, func(fr *sseFrame) error {
			got = append(got, toRef(fr))
			raw.Write(fr.Raw)
			return nil
		})
		raw.Write(p.Pending())
		if !bytes.Equal(raw.Bytes(), stream) {
			t.Fatalf("frames+pending = %q, want the input %q", raw.Bytes(), stream)
		}
		if want := referenceFrames(stream); !reflect.DeepEqual(got, want) {
			t.Fatalf("frames of %q:\n got %s\nwant %s", stream, show(got), show(want))
		}
	})
}

// refFrame is a frame's fields in comparable form.
type refFrame struct {
	Data  string
	ID    *string
	Event string
	Retry *int64
}

func toRef(f *sseFrame) refFrame {
	return refFrame{Data: string(f.Data), ID: f.ID, Event: f.Event, Retry: f.Retry}
}

func show(fs []refFrame) string {
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

var (
	lineEnds   = regexp.MustCompile(`\r\n|\r|\n`)
	retryValue = regexp.MustCompile(`^[0-9]+$`)
)

// referenceFrames reads a whole stream the plain way: strip the BOM, split
// into lines, and dispatch at each blank line. A last line without a line
// end belongs to no frame.
func referenceFrames(stream []byte) []refFrame {
	s := strings.TrimPrefix(string(stream), "\xEF\xBB\xBF")
	lines := lineEnds.Split(s, -1)
	lines = lines[:len(lines)-1]
	var (
		frames []refFrame
		cur    refFrame
		data   []string
	)
	for _, line := range lines {
		if line == "" {
			cur.Data = strings.Join(data, "\n")
			frames = append(frames, cur)
			cur, data = refFrame{}, nil
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "data":
			data = append(data, value)
		case "event":
			cur.Event = value
		case "id":
			if !strings.Contains(value, "\x00") {
				cur.ID = ptr(value)
			}
		case "retry":
			ms, err := strconv.ParseInt(value, 10, 64)
			if err == nil && retryValue.MatchString(value) {
				cur.Retry = &ms
			}
		}
	}
	return frames
}

// parseAll feeds a stream in chunks and returns its frames and pending bytes.
func parseAll(t *testing.T, stream string, chunk int) ([]refFrame, string) {
	t.Helper()
	var frames []refFrame
	p := sseParser{}
	feedChunks(&p, []byte(stream), chunk, func(f *sseFrame) error {
		frames = append(frames, toRef(f))
		return nil
	})
	return frames, string(p.Pending())
}

func feedChunks(p *sseParser, stream []byte, chunk int, emit func(*sseFrame) error) {
	for len(stream) > 0 {
		n := min(chunk, len(stream))
		_ = p.Feed(stream[:n], emit)
		stream = stream[n:]
	}
}

// feedCuts feeds a stream in chunks whose sizes come from cuts, cycling.
func feedCuts(p *sseParser, stream, cuts []byte, emit func(*sseFrame) error) {
	for i := 0; len(stream) > 0; i++ {
		n := len(stream)
		if len(cuts) > 0 {
			n = min(int(cuts[i%len(cuts)])+1, len(stream))
		}
		_ = p.Feed(stream[:n], emit)
		stream = stream[n:]
	}
}
