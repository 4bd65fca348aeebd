package rawschema

import "bytes"

// maxExponent bounds the exponents the integer test reads: beyond it the
// full validator decides (big.Rat gives up on huge exponents, and a
// number that large or small is no argument anyone sends).
const maxExponent = 400

// isInteger reports whether a well-formed JSON number has an integer
// value, as "integer" means since draft-06: 1.0 and 1e2 are integers.
// known is false when the exponent is too large to judge.
func isInteger(text []byte) (integer, known bool) {
	mant := mantissa(text)
	exp, ok := exponent(text[len(mant):])
	if !ok {
		return false, false
	}
	if isZero(mant) {
		return true, true
	}
	whole, frac := mant, []byte(nil)
	if dot := bytes.IndexByte(mant, '.'); dot >= 0 {
		whole, frac = mant[:dot], bytes.TrimRight(mant[dot+1:], "0")
	}
	if len(frac) > 0 {
		// The digits end in a non-zero one: the value is an integer only
		// when the exponent moves the point past all of them.
		return exp >= len(frac), true
	}
	return exp >= 0 || trailingZeros(whole) >= -exp, true
}

// exponent reads "e-12", "E+3", or nothing (0).
func exponent(text []byte) (int, bool) {
	if len(text) == 0 {
		return 0, true
	}
	digits, sign := text[1:], 1
	switch digits[0] {
	case '-':
		digits, sign = digits[1:], -1
	case '+':
		digits = digits[1:]
	}
	digits = bytes.TrimLeft(digits, "0")
	n := 0
	for _, c := range digits {
		if n = n*10 + int(c-'0'); n > maxExponent {
			return 0, false
		}
	}
	return sign * n, true
}

func trailingZeros(digits []byte) int {
	return len(digits) - len(bytes.TrimRight(digits, "0"))
}
