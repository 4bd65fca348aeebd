package capture

import (
	"errors"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestBlockingPipeStaysOutOfThePoller(t *testing.T) {
	r, w, err := blockingPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, f := range []*os.File{r, w} {
		// A file the poller does not know takes no deadline.
		if err := f.SetDeadline(time.Now()); !errors.Is(err, os.ErrNoDeadline) {
			t.Errorf("%s: SetDeadline = %v, want os.ErrNoDeadline: the end is registered with the poller", f.Name(), err)
		}
		fd := int(f.Fd())
		if fl, _ := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0); fl&unix.O_NONBLOCK != 0 {
			t.Errorf("%s is non-blocking", f.Name())
		}
		if fl, _ := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); fl&unix.FD_CLOEXEC == 0 {
			t.Errorf("%s would leak into the server's children: no close-on-exec", f.Name())
		}
	}
	if _, err := w.Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if n, err := r.Read(buf); err != nil || string(buf[:n]) != "ping\n" {
		t.Fatalf("read %q, %v; want the bytes written", buf[:n], err)
	}
}
