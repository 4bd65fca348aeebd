package ledger

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"strconv"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// Writer appends blocks to a ledger. It is not safe for concurrent use.
type Writer struct {
	out     *bufio.Writer
	index   int
	prev    string
	hash    hash.Hash
	content []byte
	line    []byte
}

// NewWriter starts a ledger on w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{out: bufio.NewWriterSize(w, 64<<10), prev: Genesis, hash: sha256.New()}
}

// Append adds a block whose record is v marshalled with encoding/json, then
// put in canonical form.
func (w *Writer) Append(typ string, v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("ledger block %d (%s): %w", w.index, typ, err)
	}
	return w.AppendJSON(typ, raw)
}

// AppendJSON adds a block whose record is the JSON document raw.
func (w *Writer) AppendJSON(typ string, raw []byte) (string, error) {
	v, err := canon.Decode(raw)
	if err != nil {
		return "", fmt.Errorf("ledger block %d (%s): record %w", w.index, typ, err)
	}
	return w.AppendValue(typ, v)
}

// AppendValue adds a block whose record is v.
func (w *Writer) AppendValue(typ string, v canon.Value) (string, error) {
	record, err := canon.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("ledger block %d (%s): record %w", w.index, typ, err)
	}
	return w.appendCanonical(typ, record)
}

func (w *Writer) appendCanonical(typ string, record []byte) (string, error) {
	c := append(w.content[:0], `{"index":`...)
	c = strconv.AppendInt(c, int64(w.index), 10)
	c = append(c, `,"prev_hash":"`...)
	c = append(c, w.prev...)
	c = append(c, `","record":`...)
	c = append(c, record...)
	c = append(c, `,"type":`...)
	c = canon.AppendString(c, typ)
	c = append(c, '}')
	w.content = c
	head := blockHash(w.hash, w.prev, c)
	line := append(w.line[:0], `{"hash":"`...)
	line = append(line, head...)
	line = append(line, `",`...)
	line = append(line, c[1:]...)
	w.line = append(line, '\n')
	if _, err := w.out.Write(w.line); err != nil {
		return "", fmt.Errorf("ledger block %d: %w", w.index, err)
	}
	w.prev = head
	w.index++
	return head, nil
}

// Flush writes out what is buffered.
func (w *Writer) Flush() error { return w.out.Flush() }

// Head is the hash of the last block written (Genesis before any).
func (w *Writer) Head() string { return w.prev }

// Len is the number of blocks written.
func (w *Writer) Len() int { return w.index }

// blockHash returns "sha256:" and the hex SHA-256 of prev then content.
func blockHash(h hash.Hash, prev string, content []byte) string {
	var sum [sha256.Size]byte
	return "sha256:" + hex.EncodeToString(sumInto(h, prev, content, sum[:0]))
}

func sumInto(h hash.Hash, prev string, content, dst []byte) []byte {
	h.Reset()
	io.WriteString(h, prev)
	h.Write(content)
	return h.Sum(dst)
}
