package rawschema

import "testing"

func TestIsInteger(t *testing.T) {
	for _, tt := range []struct {
		text             string
		integer, decided bool
	}{
		{"0", true, true}, {"-0", true, true}, {"0.000", true, true}, {"0e-999999", false, false},
		{"7", true, true}, {"7.0", true, true}, {"1e2", true, true}, {"1E+2", true, true},
		{"1.50e1", true, true}, {"100e-2", true, true}, {"10.0e-1", true, true}, {"0.5e1", true, true},
		{"1.05e1", false, true}, {"10.10e-1", false, true}, {"1e-2", false, true}, {"0.5", false, true},
		{"1e400", true, true}, {"1e401", false, false}, {"1e-401", false, false},
		{"1e0000000000000002", true, true},
	} {
		integer, decided := isInteger([]byte(tt.text))
		if integer != tt.integer || decided != tt.decided {
			t.Errorf("isInteger(%s) = %v, %v; want %v, %v", tt.text, integer, decided, tt.integer, tt.decided)
		}
	}
}

func TestCompareTrustsFloatsOnlyWhereExact(t *testing.T) {
	for _, tt := range []struct {
		x, y  string
		order int
		known bool
	}{
		{"1", "2", -1, true}, {"2.5", "-3", 1, true}, {"-0", "0", 0, true}, {"0.1", "1e-1", 0, true},
		{"123456789012345", "1.23456789012345e14", 0, true},
		{"0.10000000000000001", "0.1", 0, false}, // 17 digits: the same float, another number
		{"9007199254740993", "9007199254740992", 0, false},
		{"1e-400", "0", 0, false}, // below float64's range: rounds to 0
		{"1e400", "1e401", 0, false},
		{"1e400", "1", 1, true},
		{"2.2250738585072014e-308", "2.2250738585072014e-308", 0, false}, // 17 digits
		{"3e-308", "3e-308", 0, true},
		{"4e-320", "4e-320", 0, false}, // subnormal
	} {
		order, known := compare(parseNumber([]byte(tt.x)), parseNumber([]byte(tt.y)))
		if known != tt.known || known && order != tt.order {
			t.Errorf("compare(%s, %s) = %d, %v; want %d, %v", tt.x, tt.y, order, known, tt.order, tt.known)
		}
	}
}
