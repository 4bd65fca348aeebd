package trace

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// chunkReader hands out its bytes at most size at a time, as a pipe does.
type chunkReader struct {
	b    []byte
	size int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.size)], c.b)
	c.b = c.b[n:]
	return n, nil
}

type readLine struct {
	text     string
	complete bool
}

// splitLines is what lineBlocks should make of data: its lines, and
// whether one is over max bytes.
func splitLines(data []byte, max int) (lines []readLine, tooLong bool) {
	parts := bytes.Split(data, []byte("\n"))
	for i, p := range parts {
		last := i == len(parts)-1
		if last && len(p) == 0 {
			break
		}
		if len(p) > max {
			return lines, true
		}
		lines = append(lines, readLine{string(p), !last})
	}
	return lines, false
}

// readLines reads every line of r, keeping the slices it is given, and
// checks at the end that none changed under a later read or an append to
// the one before.
func readLines(t *testing.T, r io.Reader, max int) ([]readLine, error) {
	t.Helper()
	l := lineBlocks{src: r}
	var got []readLine
	var kept [][]byte
	for {
		line, complete, err := l.line(max)
		if err != nil {
			for i, b := range kept {
				if i > 0 {
					_ = append(kept[i-1], '!')
				}
				if string(b) != got[i].text {
					t.Fatalf("line %d changed from %q to %q", i+1, got[i].text, b)
				}
			}
			return got, err
		}
		if cap(line) != len(line) {
			t.Fatalf("line %q has capacity %d, past its end", line, cap(line))
		}
		got = append(got, readLine{string(line), complete})
		kept = append(kept, line)
	}
}

// checkSplit holds lineBlocks, reading data size bytes at a time, to
// splitLines.
func checkSplit(t *testing.T, data []byte, size, max int) {
	t.Helper()
	want, tooLong := splitLines(data, max)
	got, err := readLines(t, &chunkReader{data, size}, max)
	switch {
	case tooLong && !errors.Is(err, errLineTooLong):
		t.Fatalf("reads of %d: a line over %d bytes gave %v", size, max, err)
	case !tooLong && !errors.Is(err, io.EOF):
		t.Fatalf("reads of %d: %v, want io.EOF", size, err)
	case !slices.Equal(got, want):
		t.Fatalf("reads of %d: lines\n%+v\nwant\n%+v", size, got, want)
	}
}

// Lines come back whole and in order however the reads split them: short
// ones, ones that cross a block, ones longer than a block, blank ones and
// a last one with no newline.
func TestLineBlocksSplitLines(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		b.WriteString(strings.Repeat("x", i*i%997))
		b.WriteByte('\n')
	}
	long := strings.Repeat("y", 3*lineBlock+5)
	texts := []string{"", "\n", "\n\n", "a", "a\n", "a\nb", b.String(), b.String() + long + "\nz", long}
	for _, text := range texts {
		for _, size := range []int{1, 7, 4096, lineBlock, 1 << 20} {
			checkSplit(t, []byte(text), size, 1<<20)
		}
	}
}

// A line of max bytes is a line; one byte more is not, with or without a
// newline after it, and whether or not the read that brings the newline
// brings the line.
func TestLineBlocksLimit(t *testing.T) {
	const max = 100
	for _, n := range []int{max, max + 1} {
		for _, tail := range []string{"\n", ""} {
			data := []byte("ok\n" + strings.Repeat("x", n) + tail)
			for _, size := range []int{1, 50, 200} {
				checkSplit(t, data, size, max)
			}
		}
	}
}

// A read's error comes after the bytes that came with it, and a reader
// that brings nothing, again and again, is given up on.
func TestLineBlocksReadErrors(t *testing.T) {
	broken := errors.New("disk gone")
	r := iotest.DataErrReader(io.MultiReader(strings.NewReader("a\nb\nc"), iotest.ErrReader(broken)))
	got, err := readLines(t, r, 100)
	if !errors.Is(err, broken) || !slices.Equal(got, []readLine{{"a", true}, {"b", true}}) {
		t.Errorf("got %+v then %v, want a and b then the read's error", got, err)
	}
	if _, err := readLines(t, emptyReader{}, 100); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("a reader that never brings a byte: %v, want io.ErrNoProgress", err)
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// drain hands out what is left, unread, then each read's bytes, and the
// error that ends them.
func TestLineBlocksDrain(t *testing.T) {
	l := lineBlocks{src: &chunkReader{[]byte("ab\ncdef"), 4}}
	if line, _, _ := l.line(10); string(line) != "ab" {
		t.Fatalf("line %q, want ab", line)
	}
	var rest []byte
	for {
		chunk, err := l.drain()
		rest = append(rest, chunk...)
		if err != nil {
			if !errors.Is(err, io.EOF) || string(rest) != "cdef" {
				t.Fatalf("drained %q then %v, want cdef then io.EOF", rest, err)
			}
			return
		}
	}
}

// FuzzLineBlocks holds the line reader to a split of the whole input, at
// every read size and limit.
func FuzzLineBlocks(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), uint16(1), uint16(2))
	f.Add([]byte(strings.Repeat("z", lineBlock+3)+"\nq"), uint16(4096), uint16(0xffff))
	f.Fuzz(func(t *testing.T, data []byte, size, max uint16) {
		checkSplit(t, data, int(size)+1, int(max))
	})
}
