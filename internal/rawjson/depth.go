package rawjson

// ShallowEnough reports whether no array or object in b nests deeper than
// MaxDepth. It counts brackets outside strings without checking anything
// else, and never recurses: it is the guard to put before a decoder that
// recurses without a limit of its own, on text that may be hostile.
func ShallowEnough(b []byte) bool {
	depth, inString := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			i++ // the escaped byte cannot end the string
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > MaxDepth {
				return false
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return true
}
