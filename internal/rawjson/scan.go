package rawjson

// The checking scans, for a caller that reads text of a shape it knows
// (the trace reader's event line) with a scanner of its own: it walks the
// shape itself and hands each value to these. i is where the value's first
// byte lies, and ends are offsets in b, as within this package.

// ValueEnd returns the end of the value whose first byte is b[i], and
// whether it is well-formed; depth counts the containers around it, for
// MaxDepth.
func ValueEnd(b []byte, i, depth int) (int, bool) { return valueEnd(b, i, depth) }

// StringEnd returns the end of the string that opens at b[i], past its
// closing quote, and whether it is well-formed.
func StringEnd(b []byte, i int) (int, bool) { return skipString(b, i) }

// SkipSpace returns where the text from b[i] goes on past JSON whitespace:
// the index of the first byte that is not, or len(b).
func SkipSpace(b []byte, i int) int { return skipSpace(b, i) }

// TrimRightSpace returns b without the JSON whitespace that ends it.
func TrimRightSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// PlainASCIIEnd returns where the run of bytes from b[i] that a string
// holds as they are and that are ASCII ends: at the first quote,
// backslash, control character or byte above 0x7F, or at len(b). Text
// that ends at a quote there is its own value.
func PlainASCIIEnd(b []byte, i int) int { return plainASCIIRun(b, i) }
