package rawjson

import (
	"strconv"
	"testing"
)

func TestInt64AgreesWithStrconv(t *testing.T) {
	for _, s := range []string{"0", "-0", "7", "-7", "123456789012345678", "-123456789012345678",
		"1234567890123456789", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"", "-", "+5", "1.5", "1e3", "0x10", "1_000", " 1", "007", "--1", "12a"} {
		want, err := strconv.ParseInt(s, 10, 64)
		got, ok := Int64([]byte(s))
		if ok != (err == nil) || got != want {
			t.Errorf("Int64(%q) = %d, %v; strconv says %d, %v", s, got, ok, want, err)
		}
	}
}

func FuzzInt64(f *testing.F) {
	f.Add("42")
	f.Add("-9223372036854775808")
	f.Fuzz(func(t *testing.T, s string) {
		want, err := strconv.ParseInt(s, 10, 64)
		got, ok := Int64([]byte(s))
		if ok != (err == nil) || got != want {
			t.Fatalf("Int64(%q) = %d, %v; strconv says %d, %v", s, got, ok, want, err)
		}
	})
}
