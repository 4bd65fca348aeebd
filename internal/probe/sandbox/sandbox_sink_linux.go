package sandbox

import (
	"encoding/binary"
	"net"
	"net/netip"
	"sync"

	"golang.org/x/sys/unix"
)

// sink catches every connection attempt inside the namespace: a packet
// socket on lo sees each TCP SYN and UDP datagram leave, and a DNS
// responder on port 53 of every address answers lookups (A queries with an
// address reserved for benchmarking, so the caller goes on to connect and
// that is caught too) and records the names asked for.
type sink struct {
	log     *netLogWriter
	packets int
	// wake is written to stop the packet reader's poll at once.
	wakeR, wakeW int
	dns          []net.PacketConn
	wg           sync.WaitGroup
}

func startSink(log *netLogWriter) (*sink, error) {
	s := &sink{log: log}
	fd, err := openPacketSocket()
	if err != nil {
		return nil, err
	}
	s.packets = fd
	var pipe [2]int
	if err := unix.Pipe2(pipe[:], unix.O_CLOEXEC|unix.O_NONBLOCK); err != nil {
		unix.Close(fd)
		return nil, err
	}
	s.wakeR, s.wakeW = pipe[0], pipe[1]
	for _, network := range []string{"udp4", "udp6"} {
		pc, err := net.ListenPacket(network, ":53")
		if err != nil {
			if network == "udp6" {
				continue // no IPv6 here
			}
			unix.Close(fd)
			return nil, err
		}
		s.dns = append(s.dns, pc)
	}
	s.wg.Add(1 + len(s.dns))
	go s.readPackets()
	for _, pc := range s.dns {
		go s.answerDNS(pc)
	}
	return s, nil
}

// stop drains what the packet socket still holds (loopback delivers a
// packet before its send returns, so everything the server sent is there)
// and closes the sink.
func (s *sink) stop() {
	_, _ = unix.Write(s.wakeW, []byte{1})
	for _, pc := range s.dns {
		pc.Close()
	}
	s.wg.Wait()
	unix.Close(s.packets)
	unix.Close(s.wakeR)
	unix.Close(s.wakeW)
}

// openPacketSocket opens a non-blocking packet socket bound to lo.
func openPacketSocket() (int, error) {
	proto := int(htons(unix.ETH_P_ALL))
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, proto)
	if err != nil {
		return -1, err
	}
	if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: loopbackIndex}); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// readPackets records each outgoing TCP SYN and each UDP datagram that is
// neither a DNS query (the responder records those, with their names) nor
// the responder's own answer. On lo every packet is seen twice, outgoing
// and incoming; only the outgoing copy counts.
func (s *sink) readPackets() {
	defer s.wg.Done()
	buf := make([]byte, 65536)
	fds := []unix.PollFd{{Fd: int32(s.packets), Events: unix.POLLIN}, {Fd: int32(s.wakeR), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != nil && err != unix.EINTR {
			return
		}
		s.drain(buf)
		if fds[1].Revents != 0 {
			return
		}
	}
}

// drain reads every packet waiting on the socket.
func (s *sink) drain(buf []byte) {
	for {
		n, from, err := unix.Recvfrom(s.packets, buf, 0)
		if err != nil {
			return
		}
		ll, ok := from.(*unix.SockaddrLinklayer)
		if !ok || ll.Pkttype != unix.PACKET_OUTGOING {
			continue
		}
		if a, ok := attemptIn(buf[:n]); ok {
			s.log.record(a)
		}
	}
}

// attemptIn reads an IP packet and returns the attempt it makes, if any.
func attemptIn(pkt []byte) (NetAttempt, bool) {
	proto, dst, payload, ok := splitIP(pkt)
	if !ok || len(payload) < 4 {
		return NetAttempt{}, false
	}
	srcPort, dstPort := binary.BigEndian.Uint16(payload[0:]), binary.BigEndian.Uint16(payload[2:])
	to := netip.AddrPortFrom(dst, dstPort).String()
	switch proto {
	case unix.IPPROTO_TCP:
		const syn, ack = 0x02, 0x10
		if len(payload) >= 14 && payload[13]&syn != 0 && payload[13]&ack == 0 {
			return NetAttempt{Kind: "tcp", To: to}, true
		}
	case unix.IPPROTO_UDP:
		if dstPort != 53 && srcPort != 53 {
			return NetAttempt{Kind: "udp", To: to}, true
		}
	}
	return NetAttempt{}, false
}

// splitIP returns an IPv4 or IPv6 packet's transport protocol, destination
// and payload.
func splitIP(pkt []byte) (proto int, dst netip.Addr, payload []byte, ok bool) {
	if len(pkt) < 20 {
		return 0, netip.Addr{}, nil, false
	}
	switch pkt[0] >> 4 {
	case 4:
		ihl := int(pkt[0]&0x0f) * 4
		if ihl < 20 || len(pkt) < ihl {
			return 0, netip.Addr{}, nil, false
		}
		return int(pkt[9]), netip.AddrFrom4([4]byte(pkt[16:20])), pkt[ihl:], true
	case 6:
		if len(pkt) < 40 {
			return 0, netip.Addr{}, nil, false
		}
		return int(pkt[6]), netip.AddrFrom16([16]byte(pkt[24:40])), pkt[40:], true
	}
	return 0, netip.Addr{}, nil, false
}

// answerDNS records each query and answers it.
func (s *sink) answerDNS(pc net.PacketConn) {
	defer s.wg.Done()
	buf := make([]byte, 4096)
	for {
		n, from, err := pc.ReadFrom(buf)
		if err != nil {
			return
		}
		q, ok := parseDNSQuery(buf[:n])
		if !ok {
			continue
		}
		s.log.record(NetAttempt{Kind: "dns", Name: q.name, QType: q.typeName()})
		_, _ = pc.WriteTo(q.answer(), from)
	}
}
