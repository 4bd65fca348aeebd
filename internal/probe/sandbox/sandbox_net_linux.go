package sandbox

import (
	"encoding/binary"
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// routeEverythingToLoopback brings loopback up and makes every IPv4 and
// IPv6 address local to it, so that a connect to any address reaches the
// namespace itself (and is refused at once) instead of failing before a
// packet exists, and a DNS query to any resolver reaches the sink.
func routeEverythingToLoopback() error {
	if err := loopbackUp(); err != nil {
		return fmt.Errorf("bringing lo up: %w", err)
	}
	if err := addLocalRoute(unix.AF_INET); err != nil {
		return fmt.Errorf("routing IPv4 to lo: %w", err)
	}
	// IPv6 may be disabled in the kernel; IPv4 is enough to catch it then.
	_ = addLocalRoute(unix.AF_INET6)
	return nil
}

func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// loopbackIndex is lo's interface index, always 1 in a new namespace.
const loopbackIndex = 1

// addLocalRoute sends RTM_NEWROUTE for "local default dev lo table local"
// (what `ip route add local 0.0.0.0/0 dev lo table local` does) and waits
// for the kernel's acknowledgement.
func addLocalRoute(family int) error {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return err
	}
	if err := unix.Sendto(fd, newRouteMessage(family), 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return err
	}
	return readNetlinkAck(fd)
}

func newRouteMessage(family int) []byte {
	const hdrLen, rtLen, attrLen = unix.SizeofNlMsghdr, unix.SizeofRtMsg, 8
	msg := make([]byte, hdrLen+rtLen+attrLen)
	le := binary.NativeEndian
	le.PutUint32(msg[0:], uint32(len(msg)))
	le.PutUint16(msg[4:], unix.RTM_NEWROUTE)
	le.PutUint16(msg[6:], unix.NLM_F_REQUEST|unix.NLM_F_ACK|unix.NLM_F_CREATE|unix.NLM_F_EXCL)
	le.PutUint32(msg[8:], 1) // sequence number
	rt := msg[hdrLen:]
	rt[0] = byte(family)
	rt[4] = unix.RT_TABLE_LOCAL
	rt[5] = unix.RTPROT_STATIC
	rt[6] = unix.RT_SCOPE_HOST
	rt[7] = unix.RTN_LOCAL
	attr := msg[hdrLen+rtLen:]
	le.PutUint16(attr[0:], attrLen)
	le.PutUint16(attr[2:], unix.RTA_OIF)
	le.PutUint32(attr[4:], loopbackIndex)
	return msg
}

func readNetlinkAck(fd int) error {
	buf := make([]byte, 4096)
	n, _, err := unix.Recvfrom(fd, buf, 0)
	if err != nil {
		return err
	}
	msgs, err := syscall.ParseNetlinkMessage(buf[:n])
	if err != nil {
		return err
	}
	for _, m := range msgs {
		if m.Header.Type == syscall.NLMSG_ERROR && len(m.Data) >= 4 {
			if code := int32(binary.NativeEndian.Uint32(m.Data)); code != 0 {
				return unix.Errno(-code)
			}
			return nil
		}
	}
	return fmt.Errorf("no acknowledgement from the kernel")
}
