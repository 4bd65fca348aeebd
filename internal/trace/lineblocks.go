package trace

import (
	"bytes"
	"errors"
	"io"
)

// lineBlocks splits its input into lines that it reads straight into
// blocks it never reuses. A line it returns stays as it is for as long as
// anything keeps it, so an event keeps slices of its line without a copy
// of it: each byte of a trace is copied once, by the read, instead of into
// a buffer and again out of it. A block lives while the judge keeps any
// line in it, as the events' blocks do.
type lineBlocks struct {
	src io.Reader
	// blk[pos:end] is read and not yet returned.
	blk      []byte
	pos, end int
	// err is what the last read returned; the bytes it brought come first.
	err error
}

// lineBlock is the size of a block, and of most reads. A line longer than
// what is left of a block moves to a new one, twice its length if that is
// more.
const lineBlock = 32 << 10

// errLineTooLong is line's error for a line longer than its limit.
var errLineTooLong = errors.New("line too long")

// maxEmptyReads is how many reads in a row may bring nothing before the
// input is taken for broken, as bufio does.
const maxEmptyReads = 100

// line returns the next line without its newline; complete is false for a
// final line with no newline after it. A line longer than max bytes is not
// read past them: line returns errLineTooLong with the bytes read so far,
// complete when they end at its newline. At the end of the input it returns
// io.EOF; a read's error is returned as it is.
func (l *lineBlocks) line(max int) (line []byte, complete bool, err error) {
	searched := 0 // unread bytes already searched for the newline
	for {
		if i := bytes.IndexByte(l.blk[l.pos+searched:l.end], '\n'); i >= 0 {
			nl := l.pos + searched + i
			line, l.pos = l.blk[l.pos:nl:nl], nl+1
			if len(line) > max {
				return line, true, errLineTooLong
			}
			return line, true, nil
		}
		searched = l.end - l.pos
		if searched > max {
			return l.blk[l.pos:l.end], false, errLineTooLong
		}
		if l.err != nil {
			return l.last()
		}
		l.fill()
	}
}

// last returns what is left after the last read, a final line without a
// newline, or the read's error.
func (l *lineBlocks) last() ([]byte, bool, error) {
	if l.pos == l.end || !errors.Is(l.err, io.EOF) {
		return nil, false, l.err
	}
	line := l.blk[l.pos:l.end:l.end]
	l.pos = l.end
	return line, false, nil
}

// fill reads into the room after the unread bytes until a read brings
// bytes or an error, moving the unread bytes to a new block first when the
// block is full.
func (l *lineBlocks) fill() {
	if l.end == len(l.blk) {
		unread := l.blk[l.pos:l.end]
		l.blk = make([]byte, max(lineBlock, 2*len(unread)))
		l.pos, l.end = 0, copy(l.blk, unread)
	}
	for range maxEmptyReads {
		n, err := l.src.Read(l.blk[l.end:])
		l.end += n
		if l.err = err; n > 0 || err != nil {
			return
		}
	}
	l.err = io.ErrNoProgress
}

// drain returns the unread bytes, or, when there are none, the next read's
// bytes and its error. The bytes are not kept: drain reads past a line
// that is not to be returned.
func (l *lineBlocks) drain() ([]byte, error) {
	if l.pos < l.end {
		chunk := l.blk[l.pos:l.end]
		l.pos = l.end
		return chunk, nil
	}
	if l.err != nil {
		return nil, l.err
	}
	// A new block, not one over lines already returned.
	l.pos, l.end = len(l.blk), len(l.blk)
	l.fill()
	chunk := l.blk[l.pos:l.end]
	l.pos = l.end
	return chunk, nil
}
