package rawschema

import (
	"math"
	"strconv"
)

// number is what the fast form knows of a JSON number: the float64 nearest
// to it, and whether that float pins it down. The full validator compares
// numbers exactly (as big.Rat); a float comparison is only trusted where it
// cannot differ from the exact one.
type number struct {
	f float64
	// pinned: zero, or at most 15 significant digits in float64's normal
	// range. Distinct decimals of at most 15 digits round to distinct
	// float64s (DBL_DIG is 15), so equal floats mean equal numbers.
	pinned bool
}

// parseNumber reads the text of a well-formed JSON number.
func parseNumber(text []byte) number {
	f, _ := strconv.ParseFloat(string(text), 64) // out of range: ±Inf or 0, still ordered
	if isZero(text) {
		return number{pinned: true}
	}
	normal := !math.IsInf(f, 0) && math.Abs(f) >= 0x1p-1022
	return number{f: f, pinned: normal && significantDigits(text) <= 15}
}

// compare orders x and y exactly; known is false when floats cannot tell.
// Rounding to float64 never reverses an order, so unequal floats decide.
func compare(x, y number) (order int, known bool) {
	switch {
	case x.f < y.f:
		return -1, true
	case x.f > y.f:
		return 1, true
	}
	return 0, x.pinned && y.pinned
}

// mantissa is the number's text before any exponent.
func mantissa(text []byte) []byte {
	for i, c := range text {
		if c == 'e' || c == 'E' {
			return text[:i]
		}
	}
	return text
}

func isZero(text []byte) bool {
	for _, c := range mantissa(text) {
		if c >= '1' && c <= '9' {
			return false
		}
	}
	return true
}

// significantDigits counts the digits from the first non-zero one to the
// last, the point aside.
func significantDigits(text []byte) int {
	first, last, digits := -1, -1, 0
	for _, c := range mantissa(text) {
		if c < '0' || c > '9' {
			continue
		}
		if c != '0' {
			if first < 0 {
				first = digits
			}
			last = digits
		}
		digits++
	}
	return last - first + 1
}
