package message

import "bytes"

// RareNeedle is text the judge looks for in every message's text: a
// quoted key or word such as `"_meta"` or `"input_required"`, with the
// index of its byte least likely to occur in JSON text, chosen once.
type RareNeedle struct {
	Text  []byte
	pivot int
}

func NewRareNeedle(text string) RareNeedle {
	return RareNeedle{Text: []byte(text), pivot: rarestByte([]byte(text))}
}

// In is bytes.Contains(s, n.text). bytes.Contains steps from one
// occurrence of the needle's first byte to the next, and a quote is in JSON
// text every few bytes; it then falls back to comparing the needle at every
// offset. This steps instead between occurrences of the needle's rarest
// byte (an underscore, a capital), which plain JSON text seldom holds, with
// the vectorised byte search.
func (n RareNeedle) In(s []byte) bool {
	needle, pivot := n.Text, n.pivot
	if len(needle) == 0 {
		return true
	}
	c := needle[pivot]
	misses := 0
	for i := pivot; i < len(s); {
		j := bytes.IndexByte(s[i:], c)
		if j < 0 {
			return false
		}
		start := i + j - pivot
		if start+len(needle) <= len(s) && bytes.Equal(s[start:start+len(needle)], needle) {
			return true
		}
		// A text full of the pivot byte would make this quadratic; past a
		// few misses per byte read, bytes.Contains, which bounds its
		// work, searches the rest.
		if misses++; misses > 8+i>>3 {
			return bytes.Contains(s[start+1:], needle)
		}
		i += j + 1
	}
	return false
}

// rarestByte is the index of the byte of needle least likely to occur in
// JSON text: an underscore, else a capital, else a digit, else the first
// byte that is not punctuation JSON writes everywhere.
func rarestByte(needle []byte) int {
	if len(needle) == 0 {
		return 0
	}
	best, bestRank := 0, byteRanks[needle[0]]
	for i := 1; i < len(needle) && bestRank > 0; i++ {
		if r := byteRanks[needle[i]]; r < bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// byteRanks orders bytes by how often JSON text holds them, rarest first.
var byteRanks = func() (ranks [256]uint8) {
	for c := range ranks {
		switch {
		case c == '_':
			ranks[c] = 0
		case c >= 'A' && c <= 'Z':
			ranks[c] = 1
		case c >= '0' && c <= '9':
			ranks[c] = 2
		case c >= 'a' && c <= 'z':
			ranks[c] = 3
		case c == '"' || c == ':' || c == ',' || c == ' ' || c == '{' || c == '}':
			ranks[c] = 5
		default:
			ranks[c] = 4
		}
	}
	return ranks
}()
