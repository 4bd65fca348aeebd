package trace

import (
	"bytes"
	"errors"
	"io"
)

// A recorder that maps its trace file grows it ahead of its lines and cuts
// it to their length when it closes; one killed before that leaves zero
// bytes after its last line. They are the trace's torn end, said plainly,
// not a line of garbage.

// zeroTail is the error for a final line of n zero bytes.
func (r *Reader) zeroTail(n int64) *ParseError {
	return r.fail("torn end: the trace ends in %d zero bytes, which a recorder stopped before it closed the file leaves; the events before them are whole", n).torn()
}

func allZero(b []byte) bool {
	return len(bytes.Trim(b, "\x00")) == 0
}

// drainZeros reads on, without keeping what it reads, after a line over
// the length limit that is all zeros so far (n of them): zeros to the end of
// the input are a torn end; anything else, and nil, leaves the line an
// over-long one.
func (r *Reader) drainZeros(n int64) *ParseError {
	for {
		chunk, err := r.lines.drain()
		if !allZero(chunk) {
			return nil
		}
		n += int64(len(chunk))
		switch {
		case errors.Is(err, io.EOF):
			return r.zeroTail(n)
		case err != nil:
			return nil
		}
	}
}
