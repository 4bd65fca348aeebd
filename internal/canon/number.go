package canon

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// appendNumber writes a number literal in canonical form: an integer literal
// exactly, any other as Python's repr of the double it denotes.
func appendNumber(dst []byte, lit string) ([]byte, error) {
	if !strings.ContainsAny(lit, ".eE") {
		if lit == "-0" {
			return append(dst, '0'), nil
		}
		return append(dst, lit...), nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if math.IsInf(f, 0) {
		return dst, fmt.Errorf("number %s is out of range for a double: Python reads it as infinity, which has no canonical form", lit)
	}
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return dst, fmt.Errorf("malformed number %s", lit)
	}
	return AppendFloat(dst, f), nil
}

// AppendFloat writes f as Python's repr does: the shortest digits that read
// back as f, in positional notation when the decimal point falls within 16
// digits of them (with ".0" on integral values), else as d.ddde±XX.
func AppendFloat(dst []byte, f float64) []byte {
	if f == 0 {
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	var scratch [32]byte
	e := strconv.AppendFloat(scratch[:0], f, 'e', -1, 64)
	if e[0] == '-' {
		dst = append(dst, '-')
		e = e[1:]
	}
	mark := indexByte(e, 'e')
	exp, _ := strconv.Atoi(string(e[mark+1:]))
	var digitBuf [24]byte
	digits := append(digitBuf[:0], e[0])
	if mark > 1 {
		digits = append(digits, e[2:mark]...)
	}
	decpt := exp + 1
	if decpt > 16 || decpt < -3 {
		return appendExponent(dst, digits, exp)
	}
	return appendPositional(dst, digits, decpt)
}

func appendExponent(dst, digits []byte, exp int) []byte {
	dst = append(dst, digits[0])
	if len(digits) > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'e')
	if exp < 0 {
		dst = append(dst, '-')
		exp = -exp
	} else {
		dst = append(dst, '+')
	}
	if exp < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}

func appendPositional(dst, digits []byte, decpt int) []byte {
	switch {
	case decpt <= 0:
		dst = append(dst, "0."...)
		for range -decpt {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	case decpt >= len(digits):
		dst = append(dst, digits...)
		for range decpt - len(digits) {
			dst = append(dst, '0')
		}
		return append(dst, ".0"...)
	}
	dst = append(dst, digits[:decpt]...)
	dst = append(dst, '.')
	return append(dst, digits[decpt:]...)
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
