package ledger

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// Exported is what an export read and wrote.
type Exported struct {
	// Blocks counts the blocks, the same on both sides.
	Blocks int
	// SourceHead is the head of the mcpverdict ledger read.
	SourceHead string
	// Head is the head of the ledger written: under another format's
	// hashing, so it differs from SourceHead for the same blocks.
	Head string
}

// RefusedError is an export refused because its input is not an intact
// mcpverdict ledger; Reason is the first thing found wrong, naming its line.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return e.Reason }

// WriteError is an export whose output could not be written, as opposed to
// one whose input could not be read.
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// ExportMEV writes the mcpverdict ledger read from r as an
// mcp-evidence-validator ledger on w, block for block: each block keeps its
// index, type and record, and is chained anew under that format's hashing,
// which covers only the type and record after the previous hash.
//
// The ledger is verified as it is read, the same way Verify reads it, and
// the first problem refuses the export (a *RefusedError): a chain rebuilt
// over a broken one would vouch for what nothing vouched for. With
// expectedHead set, the ledger must also reach it. What was written to w by
// then is incomplete, so a caller that must not show it writes somewhere it
// can discard. Blocks are read and written one at a time: memory is flat in
// the ledger's length.
func ExportMEV(r io.Reader, w io.Writer, expectedHead string) (*Exported, error) {
	lines := lineReader{r: bufio.NewReaderSize(r, 64<<10)}
	res := &Result{Types: map[string]int{}}
	c := &chain{res: res, hash: sha256.New()}
	mev := NewMEVWriter(w)
	refuse := func(format string, args ...any) (*Exported, error) {
		return nil, &RefusedError{Reason: fmt.Sprintf(format, args...)}
	}
	for {
		l, err := lines.next()
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if len(l.raw) > 0 {
			if l.number == 1 && isMEVDocument(l.text) {
				return refuse("it is already an %s ledger: export reads mcpverdict ledgers", ForeignName)
			}
			if l.raw[len(l.raw)-1] != '\n' {
				return refuse("line %d: the last line has no newline: the file was cut short", l.number)
			}
			b, contentAt, ok := parseCanonicalLine(l.text)
			if !ok {
				verifyLine(c, l) // only to say what is wrong with the line
				return refuse("%s", res.Problems[0])
			}
			b.line = l.number
			c.block(&b, []byte("{"), l.text[contentAt:])
			if len(res.Problems) > 0 {
				return refuse("%s", res.Problems[0])
			}
			record, err := canon.Decode(b.record)
			if err != nil {
				return refuse("line %d: record %v", l.number, err)
			}
			if _, err := mev.appendBlock(string(b.typ), b.record, record); err != nil {
				var we *WriteError
				if errors.As(err, &we) {
					return nil, err
				}
				return refuse("line %d: %v", l.number, err)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if res.Blocks == 0 {
		return refuse("the ledger has no blocks")
	}
	if expectedHead != "" && res.Head != expectedHead {
		return refuse("head mismatch: the chain reaches %q, expected %q", res.Head, expectedHead)
	}
	if err := mev.Close(); err != nil {
		return nil, err
	}
	return &Exported{Blocks: res.Blocks, SourceHead: res.Head, Head: mev.Head()}, nil
}

// isMEVDocument reports whether a first line opens an mcp-evidence-validator
// document rather than holding a block, however far from canonical: a
// line that names "ledger" in its record is still a block.
func isMEVDocument(first []byte) bool {
	if !isForeignStart(first) {
		return false
	}
	if string(bytes.TrimSpace(first)) == "{" {
		return true
	}
	v, err := canon.Decode(first)
	_, blocks := v.Get("blocks")
	return err == nil && blocks
}
