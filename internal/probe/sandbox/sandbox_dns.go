package sandbox

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// sinkAddress is what every A query is answered with (RFC 2544's
// benchmarking range): local in the namespace, so a connect is refused at
// once after its SYN is caught.
var sinkAddress = [4]byte{198, 18, 0, 1}

// dnsQuery is the one question of a DNS query message.
type dnsQuery struct {
	msg      []byte // the query, up to the end of its question
	name     string
	qtype    uint16
	question int // offset of the end of the question
}

// parseDNSQuery reads the header and first question of a query.
func parseDNSQuery(msg []byte) (dnsQuery, bool) {
	if len(msg) < 12 || msg[2]&0x80 != 0 || binary.BigEndian.Uint16(msg[4:]) == 0 {
		return dnsQuery{}, false
	}
	var labels []string
	i := 12
	for {
		if i >= len(msg) {
			return dnsQuery{}, false
		}
		l := int(msg[i])
		i++
		if l == 0 {
			break
		}
		if l > 63 || i+l > len(msg) {
			return dnsQuery{}, false
		}
		labels = append(labels, string(msg[i:i+l]))
		i += l
	}
	if i+4 > len(msg) {
		return dnsQuery{}, false
	}
	q := dnsQuery{name: strings.Join(labels, ".") + ".", qtype: binary.BigEndian.Uint16(msg[i:]), question: i + 4}
	q.msg = msg[:q.question]
	return q, true
}

func (q dnsQuery) typeName() string {
	switch q.qtype {
	case 1:
		return "A"
	case 28:
		return "AAAA"
	}
	return strconv.Itoa(int(q.qtype))
}

// answer is the response: for an A query one record with sinkAddress, for
// anything else no record (NOERROR), so resolvers fall back to IPv4.
func (q dnsQuery) answer() []byte {
	out := append([]byte(nil), q.msg...)
	out[2] = 0x80 | (q.msg[2] & 0x01) // QR, copy RD
	out[3] = 0x80                     // RA, NOERROR
	binary.BigEndian.PutUint16(out[4:], 1)
	binary.BigEndian.PutUint16(out[8:], 0)
	binary.BigEndian.PutUint16(out[10:], 0)
	if q.qtype != 1 {
		binary.BigEndian.PutUint16(out[6:], 0)
		return out
	}
	binary.BigEndian.PutUint16(out[6:], 1)
	rr := []byte{0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4}
	return append(append(out, rr...), sinkAddress[:]...)
}
