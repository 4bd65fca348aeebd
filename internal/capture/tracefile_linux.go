package capture

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"golang.org/x/sys/unix"
)

// mappedTrace writes a trace file by copying each line into a shared
// mapping of it.
//
// The copy puts the line in the page cache, as write(2) would, without a
// system call. That matters on the path of every stdio message: a wrapper
// thread that has just woken for a message finds the kernel's write path
// cold, and a small write to an ext4 file then costs several times what it
// costs back to back, a large share of a round trip (BenchmarkStdioEcho
// shows it). A line is in the file once copied, so a wrapper that is killed
// loses none.
//
// The file grows a chunk at a time, with its blocks allocated up front so
// that a full disk is an error from Write rather than a fault later, and is
// cut to the length of its lines by Close. Until then it ends in zeros: a
// wrapper killed before Close leaves them after its last line, and the
// trace reader reports them as a torn end.
type mappedTrace struct {
	f      *os.File
	chunk  []byte // the mapping of the part of the file being written
	base   int64  // where chunk starts in the file
	used   int    // bytes of chunk written
	err    error  // the first failure; later writes return it
	closed bool
}

// traceChunk is how much the file grows at a time: one growth per few
// thousand typical lines, and padding that stays under the reader's
// default line limit.
const traceChunk = 1 << 20

// mapTrace returns a mapped writer over f, or nil when f cannot be mapped
// (not a regular file, or a file system that does not allow it).
func mapTrace(f *os.File) io.WriteCloser {
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() != 0 {
		return nil
	}
	m := &mappedTrace{f: f}
	if err := m.mapChunk(0); err != nil {
		_ = f.Truncate(0)
		return nil
	}
	return m
}

// mapChunk grows the file to hold the chunk at base and maps it in place of
// the current one.
func (m *mappedTrace) mapChunk(base int64) error {
	fd := int(m.f.Fd())
	if err := allocate(fd, base+traceChunk); err != nil {
		return err
	}
	chunk, err := unix.Mmap(fd, base, traceChunk, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return err
	}
	// Fault the pages in now, once, rather than one line in sixteen paying
	// for a fault; a kernel too old for this leaves them to fault later.
	_ = unix.Madvise(chunk, unix.MADV_POPULATE_WRITE)
	if m.chunk != nil {
		_ = unix.Munmap(m.chunk) // its lines stay in the file
	}
	m.chunk, m.base, m.used = chunk, base, 0
	return nil
}

// allocate gives the file size bytes with their blocks allocated, or at
// least its length where the file system cannot allocate ahead.
func allocate(fd int, size int64) error {
	err := unix.Fallocate(fd, 0, 0, size)
	if errors.Is(err, unix.EOPNOTSUPP) {
		err = unix.Ftruncate(fd, size)
	}
	return err
}

// Write copies p into the file, growing it as needed.
func (m *mappedTrace) Write(p []byte) (n int, err error) {
	if m.err != nil {
		return 0, m.err
	}
	// A mapped file that shrinks under us (truncated by another process, or
	// an I/O error on a page) faults on the copy: that must be a write
	// error, not the death of the wrapper in the middle of a session.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			m.err = fmt.Errorf("trace file %s: the mapped file failed under the recorder: %v", m.f.Name(), r)
			err = m.err
		}
	}()
	for n < len(p) {
		if m.used == len(m.chunk) {
			if err := m.mapChunk(m.base + int64(len(m.chunk))); err != nil {
				m.err = fmt.Errorf("trace file %s: %w", m.f.Name(), err)
				return n, m.err
			}
		}
		copied := copy(m.chunk[m.used:], p[n:])
		m.used += copied
		n += copied
	}
	return n, nil
}

// Close unmaps the file, cuts it to the length of what was written and
// closes it.
func (m *mappedTrace) Close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	length := m.base + int64(m.used)
	var errs []error
	if m.chunk != nil {
		errs = append(errs, unix.Munmap(m.chunk))
		m.chunk = nil
	}
	errs = append(errs, m.f.Truncate(length), m.f.Close())
	return errors.Join(errs...)
}
