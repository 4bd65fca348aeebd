package sandbox

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func dnsQueryBytes(name string, qtype uint16) []byte {
	msg := []byte{0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0}
	for _, label := range bytes.Split([]byte(name), []byte(".")) {
		msg = append(msg, byte(len(label)))
		msg = append(msg, label...)
	}
	msg = append(msg, 0, byte(qtype>>8), byte(qtype), 0, 1)
	return msg
}

func TestDNSSinkAnswersAQueriesWithItsAddress(t *testing.T) {
	q, ok := parseDNSQuery(dnsQueryBytes("forecast.example.com", 1))
	if !ok || q.name != "forecast.example.com." || q.typeName() != "A" {
		t.Fatalf("parsed %+v, %v", q, ok)
	}
	ans := q.answer()
	if ans[0] != 0x12 || ans[1] != 0x34 || ans[2]&0x80 == 0 || binary.BigEndian.Uint16(ans[6:]) != 1 {
		t.Errorf("header % x", ans[:12])
	}
	if !bytes.HasSuffix(ans, sinkAddress[:]) {
		t.Errorf("answer does not end in the sink address: % x", ans)
	}
	q6, _ := parseDNSQuery(dnsQueryBytes("forecast.example.com", 28))
	if a := q6.answer(); binary.BigEndian.Uint16(a[6:]) != 0 {
		t.Errorf("AAAA answered with records: % x", a)
	}
}

func TestDNSSinkIgnoresWhatIsNotAQuery(t *testing.T) {
	resp := dnsQueryBytes("x.org", 1)
	resp[2] |= 0x80
	for _, b := range [][]byte{nil, {1, 2, 3}, resp, dnsQueryBytes("x.org", 1)[:14]} {
		if _, ok := parseDNSQuery(b); ok {
			t.Errorf("% x parsed as a query", b)
		}
	}
}

func FuzzParseDNSQuery(f *testing.F) {
	f.Add(dnsQueryBytes("example.com", 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		if q, ok := parseDNSQuery(b); ok {
			_ = q.answer()
		}
	})
}
