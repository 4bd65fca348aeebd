package rawjson

import "strconv"

// Int64 is strconv.ParseInt(string(b), 10, 64) without the conversion and
// the general parser for the common case, an optional minus sign and at
// most 18 digits, which cannot overflow. Seq numbers, timestamps and
// request ids are read this way on every event.
func Int64(b []byte) (int64, bool) {
	digits, negative := b, false
	if len(digits) > 0 && digits[0] == '-' {
		digits, negative = digits[1:], true
	}
	if len(digits) == 0 || len(digits) > 18 {
		return parseIntSlowly(b)
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return parseIntSlowly(b)
		}
		n = n*10 + int64(c-'0')
	}
	if negative {
		n = -n
	}
	return n, true
}

func parseIntSlowly(b []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil
}
