package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"
)

func ipv4Packet(proto byte, dst [4]byte, payload []byte) []byte {
	pkt := make([]byte, 20, 20+len(payload))
	pkt[0], pkt[9] = 0x45, proto
	copy(pkt[16:20], dst[:])
	return append(pkt, payload...)
}

func TestSinkRecordsSYNsAndDatagramsOnly(t *testing.T) {
	tcp := func(flags byte) []byte {
		seg := make([]byte, 20)
		seg[2], seg[3], seg[13] = 0, 80, flags
		return seg
	}
	udp := func(src, dst uint16) []byte {
		return []byte{byte(src >> 8), byte(src), byte(dst >> 8), byte(dst), 0, 8, 0, 0}
	}
	dst := [4]byte{198, 18, 0, 1}
	cases := []struct {
		pkt  []byte
		want string
	}{
		{ipv4Packet(unix.IPPROTO_TCP, dst, tcp(0x02)), "tcp 198.18.0.1:80"},
		{ipv4Packet(unix.IPPROTO_TCP, dst, tcp(0x12)), ""},      // SYN-ACK: an answer
		{ipv4Packet(unix.IPPROTO_TCP, dst, tcp(0x14)), ""},      // RST-ACK
		{ipv4Packet(unix.IPPROTO_UDP, dst, udp(40000, 53)), ""}, // a DNS query: the responder records it
		{ipv4Packet(unix.IPPROTO_UDP, dst, udp(53, 40000)), ""}, // the responder's answer
		{ipv4Packet(unix.IPPROTO_UDP, dst, udp(40000, 123)), "udp 198.18.0.1:123"},
		{[]byte{0x45, 0}, ""},
	}
	for _, c := range cases {
		a, ok := attemptIn(c.pkt)
		got := ""
		if ok {
			got = a.Kind + " " + a.To
		}
		if got != c.want {
			t.Errorf("% x: got %q, want %q", c.pkt[:min(len(c.pkt), 24)], got, c.want)
		}
	}
}
