package ledger

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// MEVVersion is the mcp-evidence-validator format version MEVWriter writes:
// the newest this build reads, and the one whose verify holds every block's
// index and prev_hash to the walk and the chain to an expected head.
const MEVVersion = "0.3"

// MEVWriter writes an mcp-evidence-validator ledger: one JSON document
// {"ledger","version","blocks"}, each block hashing the previous hash
// followed by the canonical {"record":…,"type":…}. The document is laid out
// byte for byte as that tool's json.dump(indent=2) lays out the same values,
// non-ASCII escaped, so that what it reads back is what was hashed, whatever
// JSON reader it has. Blocks go out as they come: memory is flat in the
// ledger's length. It is not safe for concurrent use.
type MEVWriter struct {
	out    *bufio.Writer
	index  int
	prev   string
	hash   hash.Hash
	body   []byte
	doc    []byte
	closed bool
}

// NewMEVWriter starts an mcp-evidence-validator ledger on w; nothing is
// complete until Close.
func NewMEVWriter(w io.Writer) *MEVWriter {
	mw := &MEVWriter{out: bufio.NewWriterSize(w, 64<<10), prev: Genesis, hash: sha256.New()}
	mw.doc = append(mw.doc[:0], "{\n  \"ledger\": "...)
	mw.doc = appendASCIIString(mw.doc, ForeignName)
	mw.doc = append(mw.doc, ",\n  \"version\": "...)
	mw.doc = appendASCIIString(mw.doc, MEVVersion)
	mw.doc = append(mw.doc, ",\n  \"blocks\": ["...)
	mw.out.Write(mw.doc) // an error stays in the bufio.Writer and is returned by the next write
	return mw
}

// Append adds a block whose record is v marshalled with encoding/json.
func (w *MEVWriter) Append(typ string, v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("ledger block %d (%s): %w", w.index, typ, err)
	}
	return w.AppendJSON(typ, raw)
}

// AppendJSON adds a block whose record is the JSON document raw.
func (w *MEVWriter) AppendJSON(typ string, raw []byte) (string, error) {
	v, err := canon.Decode(raw)
	if err != nil {
		return "", fmt.Errorf("ledger block %d (%s): record %w", w.index, typ, err)
	}
	return w.AppendValue(typ, v)
}

// AppendValue adds a block whose record is v; v's members are written in
// their order, and hashed in canonical order.
func (w *MEVWriter) AppendValue(typ string, v canon.Value) (string, error) {
	record, err := canon.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("ledger block %d (%s): record %w", w.index, typ, err)
	}
	return w.appendBlock(typ, record, v)
}

// appendBlock writes one block: record is v in canonical form, which the
// hash covers. A failure to write is a *WriteError; any other error is v's.
func (w *MEVWriter) appendBlock(typ string, record []byte, v canon.Value) (string, error) {
	if w.closed {
		return "", fmt.Errorf("ledger block %d (%s): the ledger is closed", w.index, typ)
	}
	if !utf8.ValidString(typ) {
		return "", fmt.Errorf("ledger block %d: the type is not valid UTF-8", w.index)
	}
	b := append(w.body[:0], `{"record":`...)
	b = append(b, record...)
	b = append(b, `,"type":`...)
	b = canon.AppendString(b, typ)
	w.body = append(b, '}')
	head := blockHash(w.hash, w.prev, w.body)

	d := w.doc[:0]
	if w.index > 0 {
		d = append(d, ',')
	}
	d = append(d, "\n    {\n      \"index\": "...)
	d = strconv.AppendInt(d, int64(w.index), 10)
	d = append(d, ",\n      \"prev_hash\": "...)
	d = appendASCIIString(d, w.prev)
	d = append(d, ",\n      \"type\": "...)
	d = appendASCIIString(d, typ)
	d = append(d, ",\n      \"record\": "...)
	d, err := appendIndented(d, v, 3)
	if err != nil {
		return "", fmt.Errorf("ledger block %d (%s): record %w", w.index, typ, err)
	}
	d = append(d, ",\n      \"hash\": "...)
	d = appendASCIIString(d, head)
	w.doc = append(d, "\n    }"...)
	if _, err := w.out.Write(w.doc); err != nil {
		return "", &WriteError{Err: fmt.Errorf("ledger block %d: %w", w.index, err)}
	}
	w.prev = head
	w.index++
	return head, nil
}

// Close ends the document and writes out what is buffered. The document
// ends at its closing brace, with no newline, as json.dump ends it.
func (w *MEVWriter) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	end := "\n  ]\n}"
	if w.index == 0 {
		end = "]\n}"
	}
	w.out.WriteString(end)
	if err := w.out.Flush(); err != nil {
		return &WriteError{Err: err}
	}
	return nil
}

// Head is the hash of the last block written (Genesis before any): the
// digest that tool's validate prints and its verify --expected-head takes.
func (w *MEVWriter) Head() string { return w.prev }

// Len is the number of blocks written.
func (w *MEVWriter) Len() int { return w.index }

// appendIndented writes v as json.dump(indent=2) writes a value nested
// depth levels deep: members in their order, each on a line of its own.
func appendIndented(dst []byte, v canon.Value, depth int) ([]byte, error) {
	switch v.Kind {
	case canon.String:
		return appendASCIIString(dst, v.Text), nil
	case canon.Array:
		if len(v.Items) == 0 {
			return append(dst, "[]"...), nil
		}
		dst = append(dst, '[')
		for i, item := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNewline(dst, depth+1)
			var err error
			if dst, err = appendIndented(dst, item, depth+1); err != nil {
				return dst, err
			}
		}
		return append(appendNewline(dst, depth), ']'), nil
	case canon.Object:
		if len(v.Members) == 0 {
			return append(dst, "{}"...), nil
		}
		dst = append(dst, '{')
		for i, m := range v.Members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNewline(dst, depth+1)
			dst = appendASCIIString(dst, m.Key)
			dst = append(dst, ": "...)
			var err error
			if dst, err = appendIndented(dst, m.Value, depth+1); err != nil {
				return dst, err
			}
		}
		return append(appendNewline(dst, depth), '}'), nil
	}
	// Scalars are written as the canonical form writes them, which is how
	// Python writes the int or float it reads them as.
	return canon.Append(dst, v)
}

func appendNewline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, "  "...)
	}
	return dst
}

// appendASCIIString writes s quoted with every byte outside printable ASCII
// escaped, as Python's json writes with ensure_ascii on (its default): a
// character beyond U+FFFF as its UTF-16 surrogate pair. s is valid UTF-8.
func appendASCIIString(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	u4 := func(dst []byte, r rune) []byte {
		return append(dst, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
	}
	dst = append(dst, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r >= 0x20 && r < 0x7f:
			dst = append(dst, byte(r))
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == '\b':
			dst = append(dst, `\b`...)
		case r == '\f':
			dst = append(dst, `\f`...)
		case r > 0xffff:
			r -= 0x10000
			dst = u4(u4(dst, 0xd800+(r>>10)), 0xdc00+(r&0x3ff))
		default:
			dst = u4(dst, r)
		}
	}
	return append(dst, '"')
}
