package trace

import "github.com/mcpverdict/mcpverdict/internal/rawjson"

// maxDepth is encoding/json's nesting limit, kept so that the recorder
// accepts exactly the texts encoding/json does.
const maxDepth = 10000

// appendCompact appends src to dst without its insignificant whitespace and
// reports whether src is exactly one well-formed JSON value; when it is
// not, what was appended is to be thrown away.
//
// It writes what json.Compact writes and accepts what it accepts (checked by
// FuzzAppendCompact), in a fraction of the time: the recorder scans every
// message before it may forward it, and encoding/json's byte-at-a-time
// scanner made that scan cost more than the rest of recording a large
// message. Scalars are measured by rawjson, whose string scan goes eight
// bytes at a time; containers are tracked on an explicit stack, so that no
// depth of nesting can exhaust the goroutine's stack.
func appendCompact(dst, src []byte) ([]byte, bool) {
	c := compactor{src: src, dst: dst}
	ok := c.compact()
	return append(c.dst, src[c.copied:c.i]...), ok
}

// compactor is one scan of a JSON text.
type compactor struct {
	src    []byte
	dst    []byte
	i      int    // the next byte to read
	copied int    // src before this is in dst, or was whitespace
	open   []byte // the opening bracket of each container the scan is in
}

// compact reads one value and what follows it to the end of src.
func (c *compactor) compact() bool {
	for {
		complete, ok := c.value()
		if !ok {
			return false
		}
		if complete && !c.closeOrNext() {
			return false
		}
		if len(c.open) == 0 && complete {
			c.space()
			return c.i == len(c.src)
		}
	}
}

// value reads the start of a value: a scalar or an empty container whole
// (complete), else the opening bracket of a container and, in an object,
// the first key, leaving the member's value to read.
func (c *compactor) value() (complete, ok bool) {
	c.space()
	if c.i >= len(c.src) {
		return false, false
	}
	b := c.src[c.i]
	if b != '{' && b != '[' {
		return true, c.scalar()
	}
	if len(c.open) >= maxDepth {
		return false, false
	}
	c.i++
	c.space()
	if c.i < len(c.src) && c.src[c.i] == closing(b) {
		c.i++
		return true, true
	}
	c.open = append(c.open, b)
	return false, b == '[' || c.key()
}

// closeOrNext reads past a complete value: the brackets it closes, then the
// comma and, in an object, the key before the next value. It returns true
// at the end of the outermost value too.
func (c *compactor) closeOrNext() bool {
	for len(c.open) > 0 {
		c.space()
		if c.i >= len(c.src) {
			return false
		}
		inner := c.open[len(c.open)-1]
		switch c.src[c.i] {
		case ',':
			c.i++
			return inner == '[' || c.key()
		case closing(inner):
			c.i++
			c.open = c.open[:len(c.open)-1]
		default:
			return false
		}
	}
	return true
}

func closing(open byte) byte {
	if open == '{' {
		return '}'
	}
	return ']'
}

// key reads an object member's key and the colon after it.
func (c *compactor) key() bool {
	c.space()
	if c.i >= len(c.src) || c.src[c.i] != '"' || !c.scalar() {
		return false
	}
	c.space()
	if c.i >= len(c.src) || c.src[c.i] != ':' {
		return false
	}
	c.i++
	return true
}

// scalar reads the string, number or literal at c.i.
func (c *compactor) scalar() bool {
	n, ok := rawjson.Skip(c.src[c.i:])
	c.i += n
	return ok
}

// space skips whitespace, leaving it out of dst.
func (c *compactor) space() {
	start := c.i
	for c.i < len(c.src) && isJSONSpace(c.src[c.i]) {
		c.i++
	}
	if c.i > start {
		c.dst = append(c.dst, c.src[c.copied:start]...)
		c.copied = c.i
	}
}

func isJSONSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
