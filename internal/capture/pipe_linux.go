package capture

import (
	"os"

	"golang.org/x/sys/unix"
)

// blockingPipe makes a pipe whose ends the runtime's poller never sees.
//
// os.Pipe registers both ends with epoll, edge-triggered for reading and
// writing, and File.Fd, which makes an end blocking, leaves it registered:
// every message the server writes, and every read of its stdin that frees
// room, still wakes the thread that sleeps in epoll_wait, one spurious
// thread wake per message each way. A pipe made here is blocking from the
// start, so only the thread blocked in read(2) or write(2) is woken.
func blockingPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}
