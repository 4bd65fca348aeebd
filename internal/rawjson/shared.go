package rawjson

// The two pieces of JSON grammar that mcpverdict's own writers and readers
// (the trace encoder, the canonical JSON of package canon) share with the
// scans here, kept in one place so that they cannot drift apart.

// NumberEnd returns the end of the RFC 8259 number that starts at b[i], and
// whether one does.
func NumberEnd(b []byte, i int) (int, bool) { return skipNumber(b, i) }

// AppendEscape appends the escape of one ASCII byte that a JSON string
// cannot hold as it is: a quote, a backslash or a control character.
func AppendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

const hexDigits = "0123456789abcdef"
