package rawjson

// MemberBounds checks the object that opens at b[i], nested in depth
// containers, as ValueEnd does, and appends to dst, for each member in
// document order, four offsets from b[base]: where the key's text between
// its quotes starts and ends, and where the value starts and ends. A key
// whose text is not its name (an escape sequence, or bytes that are not
// UTF-8) makes plain false, and dst comes back as it was given; end and ok
// are ValueEnd's either way. A reader that checks an object anyway notes
// its members at the cost of the appends, and no later reader of them
// scans it again.
func MemberBounds(dst []uint32, b []byte, i, depth, base int) (out []uint32, end int, plain, ok bool) {
	given := len(dst)
	if depth >= MaxDepth {
		return dst, i, false, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return dst, i + 1, true, true
	}
	plain = true
	for {
		if i >= len(b) || b[i] != '"' {
			return dst[:given], i, false, false
		}
		keyEnd := plainASCIIRun(b, i+1) + 1
		if keyEnd > len(b) || b[keyEnd-1] != '"' {
			if keyEnd, ok = skipString(b, i); !ok {
				return dst[:given], keyEnd, false, false
			}
			plain = plain && !needsDecoding(b[i+1:keyEnd-1])
		}
		colon, ok := skipSpaceTo(b, keyEnd, ':')
		if !ok {
			return dst[:given], colon, false, false
		}
		value := skipSpace(b, colon+1)
		valueEnd, ok := valueEnd(b, value, depth+1)
		if !ok {
			return dst[:given], valueEnd, false, false
		}
		if plain {
			dst = append(dst, uint32(i+1-base), uint32(keyEnd-1-base), uint32(value-base), uint32(valueEnd-base))
		}
		if i, ok = skipSpaceTo(b, valueEnd, ','); ok {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			if !plain {
				dst = dst[:given]
			}
			return dst, i + 1, plain, true
		}
		return dst[:given], i, false, false
	}
}
