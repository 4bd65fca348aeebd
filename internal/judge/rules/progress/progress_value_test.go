package progress

import (
	"math"
	"strconv"
	"testing"
)

var progressValueSeeds = []string{
	"0", "00", "007", "1", "42", "123456789012345", "999999999999999", "1234567890123456",
	"-0", "-1", "+1", "1.5", "1e3", "1E+2", "", " 1", "1 ", "0x10", "inf", "NaN", "1_0", "١",
}

// progressValue reads what strconv.ParseFloat reads, to the bit.
func TestProgressValueIsParseFloat(t *testing.T) {
	for _, text := range progressValueSeeds {
		checkProgressValue(t, text)
	}
}

func FuzzProgressValue(f *testing.F) {
	for _, text := range progressValueSeeds {
		f.Add(text)
	}
	f.Fuzz(checkProgressValue)
}

func checkProgressValue(t *testing.T, text string) {
	got, ok := progressValue([]byte(text))
	want, err := strconv.ParseFloat(text, 64)
	if ok != (err == nil) || ok && math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("progressValue(%q) = %v %v; ParseFloat gives %v %v", text, got, ok, want, err)
	}
}
