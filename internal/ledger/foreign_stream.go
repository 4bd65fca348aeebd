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

// docReader walks one JSON document from a stream, a value at a time: an
// mcp-evidence-validator ledger is a single document whose blocks array
// may be any length, and only one block is held at once.
type docReader struct {
	r   *bufio.Reader
	off int64 // bytes read so far, for the problems' positions
	buf []byte
}

var errDoc = errors.New("malformed JSON")

func (d *docReader) byte() (byte, error) {
	c, err := d.r.ReadByte()
	if err == nil {
		d.off++
	}
	return c, err
}

func (d *docReader) unread() {
	d.r.UnreadByte()
	d.off--
}

// next returns the next byte that is not white space.
func (d *docReader) next() (byte, error) {
	for {
		c, err := d.byte()
		if err != nil {
			return 0, err
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, nil
		}
	}
}

// expect reads the next byte that is not white space and checks it is c.
func (d *docReader) expect(c byte) error {
	got, err := d.next()
	if err != nil {
		return err
	}
	if got != c {
		return fmt.Errorf("%w at byte %d: %q where %q belongs", errDoc, d.off, got, c)
	}
	return nil
}

// value reads one whole JSON value and returns its bytes, valid until the
// next call; it checks only the nesting and the strings, which is what
// finding the value's end needs: canon.Decode checks the rest.
func (d *docReader) value() ([]byte, error) {
	first, err := d.next()
	if err != nil {
		return nil, err
	}
	d.buf = append(d.buf[:0], first)
	switch first {
	case '"':
		return d.buf, d.stringRest()
	case '{', '[':
		return d.buf, d.nested()
	}
	for {
		c, err := d.byte()
		if err == io.EOF {
			return d.buf, nil
		}
		if err != nil {
			return nil, err
		}
		switch c {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			d.unread()
			return d.buf, nil
		}
		d.buf = append(d.buf, c)
	}
}

// stringRest reads a string's bytes after its opening quote.
func (d *docReader) stringRest() error {
	esc := false
	for {
		w, err := d.window()
		if err != nil {
			return unexpectedEnd(err)
		}
		end, done := stringEnd(w, &esc)
		d.take(w[:end])
		if done {
			return nil
		}
	}
}

// nested reads an object's or array's bytes after its opening bracket.
func (d *docReader) nested() error {
	depth, inString, esc := 1, false, false
	for {
		w, err := d.window()
		if err != nil {
			return unexpectedEnd(err)
		}
		i := 0
		for i < len(w) {
			if inString {
				end, done := stringEnd(w[i:], &esc)
				i += end
				inString = !done
				continue
			}
			switch w[i] {
			case '"':
				inString = true
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			i++
			if depth == 0 {
				d.take(w[:i])
				return nil
			}
		}
		d.take(w)
	}
}

// stringEnd finds where a string's closing quote ends in w, the string
// begun before w (esc: w starts just after a backslash); it returns len(w)
// and false when w ends first, with esc set for the next window.
func stringEnd(w []byte, esc *bool) (int, bool) {
	i := 0
	if *esc {
		if len(w) == 0 {
			return 0, false
		}
		*esc, i = false, 1
	}
	for i < len(w) {
		q := bytes.IndexByte(w[i:], '"')
		if q < 0 {
			q = len(w) - i
		}
		if bs := bytes.IndexByte(w[i:i+q], '\\'); bs >= 0 {
			i += bs + 1
			if i == len(w) {
				*esc = true
				return i, false
			}
			i++ // the escaped byte
			continue
		}
		i += q
		if i < len(w) {
			return i + 1, true
		}
	}
	return i, false
}

// window returns the bytes buffered, reading more when there are none;
// they are valid until take.
func (d *docReader) window() ([]byte, error) {
	if d.r.Buffered() == 0 {
		if _, err := d.r.Peek(1); err != nil {
			return nil, err
		}
	}
	return d.r.Peek(d.r.Buffered())
}

// take appends what was scanned of the window to the value and consumes it.
func (d *docReader) take(scanned []byte) {
	d.buf = append(d.buf, scanned...)
	d.r.Discard(len(scanned))
	d.off += int64(len(scanned))
}

func unexpectedEnd(err error) error {
	if err == io.EOF {
		return fmt.Errorf("%w: the document ends inside a value", errDoc)
	}
	return err
}

// verifyMEVStream checks an mcp-evidence-validator ledger read from r:
// one JSON document {"ledger","version","blocks"}, each block hashing the
// previous hash followed by the canonical {"record":…,"type":…}. The
// blocks are read and checked one at a time, so memory stays flat in the
// ledger's length; the header may come before or after them. It returns
// an error only when r cannot be read.
func verifyMEVStream(r *bufio.Reader, res *Result) error {
	res.Format = ForeignName
	d := &docReader{r: r}
	var header = map[string]canon.Value{}
	sawBlocks := false
	c := &chain{res: res, hash: sha256.New()}
	err := d.walkObject(func(key string) error {
		if key != "blocks" {
			raw, err := d.value()
			if err != nil {
				return err
			}
			if key == "ledger" || key == "version" {
				v, err := canon.Decode(raw)
				if err != nil {
					return fmt.Errorf("%w: $.%s: %v", errDoc, key, err)
				}
				header[key] = v
			}
			return nil
		}
		sawBlocks = true
		return d.walkArray(func(pos int) error {
			raw, err := d.value()
			if err != nil {
				return err
			}
			item, err := canon.Decode(raw)
			if err != nil {
				res.problem("block at position %d: %v", pos, err)
				res.Head = ""
				res.Blocks++
				return nil
			}
			c.mevBlock(pos, item)
			return nil
		})
	})
	if err != nil {
		if errors.Is(err, errDoc) || errors.Is(err, io.EOF) {
			res.problem("not a ledger: %v", err)
			return nil
		}
		return err
	}
	if _, err := d.next(); err != io.EOF {
		res.problem("not a ledger: more after the document's end (byte %d)", d.off)
	}
	return checkForeignHeader(header, sawBlocks, res)
}

// walkObject reads an object, calling member for each key with the reader
// at the start of its value.
func (d *docReader) walkObject(member func(key string) error) error {
	if err := d.expect('{'); err != nil {
		return err
	}
	for n := 0; ; n++ {
		c, err := d.next()
		if err != nil {
			return unexpectedEnd(err)
		}
		if c == '}' && n == 0 {
			return nil
		}
		if n > 0 {
			if c == '}' {
				return nil
			}
			if c != ',' {
				return fmt.Errorf("%w at byte %d: %q between members", errDoc, d.off, c)
			}
			if c, err = d.next(); err != nil {
				return unexpectedEnd(err)
			}
		}
		if c != '"' {
			return fmt.Errorf("%w at byte %d: a member name must be a string", errDoc, d.off)
		}
		d.buf = append(d.buf[:0], c)
		if err := d.stringRest(); err != nil {
			return err
		}
		key, err := canon.Decode(d.buf)
		if err != nil || key.Kind != canon.String {
			return fmt.Errorf("%w at byte %d: a member name is not a string", errDoc, d.off)
		}
		if err := d.expect(':'); err != nil {
			return err
		}
		if err := member(key.Text); err != nil {
			return err
		}
	}
}

// walkArray reads an array, calling element for each with the reader at
// its start; an array that is not there is a problem of the document's.
func (d *docReader) walkArray(element func(pos int) error) error {
	c, err := d.next()
	if err != nil {
		return unexpectedEnd(err)
	}
	if c != '[' {
		return fmt.Errorf("%w: $.blocks is not an array", errDoc)
	}
	for pos := 0; ; pos++ {
		c, err := d.next()
		if err != nil {
			return unexpectedEnd(err)
		}
		if c == ']' && pos == 0 {
			return nil
		}
		if pos > 0 {
			if c == ']' {
				return nil
			}
			if c != ',' {
				return fmt.Errorf("%w at byte %d: %q between blocks", errDoc, d.off, c)
			}
		} else {
			d.unread()
		}
		if err := element(pos); err != nil {
			return err
		}
	}
}

// mevBlock checks one block of an mcp-evidence-validator ledger.
func (c *chain) mevBlock(pos int, item canon.Value) {
	res := c.res
	b, problem := blockFields(item, "hash", "index", "prev_hash", "record", "type")
	if problem != "" {
		res.problem("block at position %d: %s", pos, problem)
		res.Head = ""
		res.Blocks++
		return
	}
	body := canon.Value{Kind: canon.Object, Members: []canon.Member{
		{Key: "record", Value: mustGet(item, "record")},
		{Key: "type", Value: canon.StringValue(string(b.typ))},
	}}
	content, err := canon.Marshal(body)
	if err != nil {
		res.problem("block at position %d: %v", pos, err)
	}
	c.block(&b, content)
	collectRecipes(res, b)
}

// checkForeignHeader holds the header, read wherever it stood in the
// document, to what this build reads.
func checkForeignHeader(header map[string]canon.Value, sawBlocks bool, res *Result) error {
	name, version := header["ledger"], header["version"]
	res.Format = fmt.Sprintf("%s %s", ForeignName, version.Text)
	switch {
	case name.Kind != canon.String || name.Text != ForeignName:
		res.problem("not a ledger this build reads: $.ledger is %q, expected %q", name.Text, ForeignName)
	case !foreignVersions[version.Text]:
		res.problem("$.version %q: this build reads %s ledgers of format 0.2 and 0.3", version.Text, ForeignName)
	case !sawBlocks:
		res.problem("$.blocks: missing or not an array")
	default:
		return nil
	}
	res.Head = ""
	return nil
}
