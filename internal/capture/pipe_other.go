//go:build !linux

package capture

import "os"

// blockingPipe makes a pipe with both ends in blocking mode. Elsewhere than
// on Linux they stay known to the runtime's poller; see pipe_linux.go.
func blockingPipe() (r, w *os.File, err error) {
	if r, w, err = os.Pipe(); err != nil {
		return nil, nil, err
	}
	r.Fd()
	w.Fd()
	return r, w, nil
}
