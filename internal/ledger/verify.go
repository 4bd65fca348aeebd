package ledger

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"sort"
	"strconv"
)

// Result is what verifying a ledger found.
type Result struct {
	// Format names the ledger format read, with its version.
	Format string
	// Blocks counts the blocks read.
	Blocks int
	// Types counts blocks by type.
	Types map[string]int
	// Recipes lists the contract recipes the records name, sorted.
	Recipes []string
	// Head is the hash of the last block read.
	Head string
	// Problems lists everything wrong, in the order found; none means the
	// chain is whole and reaches the expected head.
	Problems []string
}

// Intact reports whether the ledger verified.
func (r *Result) Intact() bool { return len(r.Problems) == 0 }

func (r *Result) problem(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

// VerifyFile verifies the ledger at path against expectedHead. The error is
// for a file that cannot be read; what is wrong with its content is in the
// Result's Problems.
func VerifyFile(path, expectedHead string) (*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the ledger: %w", err)
	}
	defer f.Close()
	res, err := Verify(f, expectedHead)
	if err != nil {
		return nil, fmt.Errorf("cannot read the ledger %s: %w", path, err)
	}
	return res, nil
}

// Verify reads a ledger, in either format, and checks every block's index,
// prev_hash and hash, then that the chain reaches expectedHead.
func Verify(r io.Reader, expectedHead string) (*Result, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	res := &Result{Types: map[string]int{}}
	lines := lineReader{r: br}
	first, err := lines.next()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if isForeignStart(first.text) {
		doc := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(first.raw), br), 64<<10)
		if err := verifyMEVStream(doc, res); err != nil {
			return nil, err
		}
	} else {
		if err := verifyLines(&lines, first, err, res); err != nil {
			return nil, err
		}
	}
	res.finish(expectedHead)
	return res, nil
}

func (r *Result) finish(expectedHead string) {
	if r.Blocks == 0 {
		r.problem("the ledger has no blocks")
	}
	if r.Head != expectedHead {
		r.problem("head mismatch: the chain reaches %q, expected %q", r.Head, expectedHead)
	}
	sort.Strings(r.Recipes)
}

// isForeignStart reports whether a first line opens an mcp-evidence-validator
// document (pretty-printed, so "{" alone, or one line holding "ledger").
func isForeignStart(line []byte) bool {
	t := bytes.TrimSpace(line)
	if string(t) == "{" {
		return true
	}
	return !bytes.HasPrefix(t, []byte(`{"hash":`)) && bytes.Contains(t, []byte(`"ledger"`))
}

// line is one line of the file: raw with its newline, text without.
type line struct {
	raw, text []byte
	number    int
}

// lineReader returns lines of any length, reusing its buffer.
type lineReader struct {
	r      *bufio.Reader
	buf    []byte
	number int
}

func (l *lineReader) next() (line, error) {
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		l.buf = append(l.buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(l.buf) > 0 {
			l.number++
		}
		text := bytes.TrimSuffix(l.buf, []byte("\n"))
		if err == nil || (errors.Is(err, io.EOF) && len(l.buf) > 0) {
			return line{raw: l.buf, text: text, number: l.number}, err
		}
		return line{}, err
	}
}

// chain is the walk over blocks: it checks each against the one before.
type chain struct {
	res  *Result
	hash hash.Hash
	sum  [sha256.Size]byte
	hex  [2 * sha256.Size]byte
	num  [20]byte
}

// block checks one block: content is its canonical form without the hash
// member, hashed after the previous block's hash.
func (c *chain) block(b *view, content ...[]byte) {
	res, pos := c.res, c.res.Blocks
	prev := res.Head
	if pos == 0 {
		prev = Genesis
	}
	if !bytes.Equal(b.index, strconv.AppendInt(c.num[:0], int64(pos), 10)) {
		res.problem("%s: index field says %s", where(pos, b.line), b.index)
	}
	if string(b.prevHash) != prev {
		res.problem("%s: prev_hash field says %q, the chain walk says %q", where(pos, b.line), b.prevHash, prev)
	}
	if got := c.digest(prev, content); !bytes.Equal(got, bytes.TrimPrefix(b.hash, []byte("sha256:"))) || !bytes.HasPrefix(b.hash, []byte("sha256:")) {
		res.problem("%s: hash mismatch: the block says %q, its content hashes to \"sha256:%s\"", where(pos, b.line), b.hash, got)
	}
	c.count(b.typ)
	res.Head = string(b.hash)
	res.Blocks++
}

func where(pos, line int) string {
	if line > 0 {
		return fmt.Sprintf("block at position %d (line %d)", pos, line)
	}
	return fmt.Sprintf("block at position %d", pos)
}

func (c *chain) digest(prev string, content [][]byte) []byte {
	c.hash.Reset()
	io.WriteString(c.hash, prev)
	for _, part := range content {
		c.hash.Write(part)
	}
	hex.Encode(c.hex[:], c.hash.Sum(c.sum[:0]))
	return c.hex[:]
}

func (c *chain) count(typ []byte) {
	if n, ok := c.res.Types[string(typ)]; ok {
		c.res.Types[string(typ)] = n + 1
		return
	}
	c.res.Types[string(typ)] = 1
}

func (r *Result) addRecipe(recipe string) {
	for _, have := range r.Recipes {
		if have == recipe {
			return
		}
	}
	r.Recipes = append(r.Recipes, recipe)
}
