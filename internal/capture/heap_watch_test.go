package capture

import (
	"io"
	"runtime"
	"time"
)

// HeapWatch samples the heap in use while a test runs and keeps how far it
// rose above where it started: a bound on it is a bound on what the code
// under test holds. It is exported for the stdio tests, which live in
// package capture_test.
type HeapWatch struct {
	base, peak uint64 // peak is written by the sampler alone, read after it stops
	stop, done chan struct{}
}

// WatchHeap starts sampling, from a heap just collected.
func WatchHeap() *HeapWatch {
	runtime.GC()
	h := &HeapWatch{base: heapInUse(), stop: make(chan struct{}), done: make(chan struct{})}
	go h.sample()
	return h
}

func (h *HeapWatch) sample() {
	defer close(h.done)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if n := heapInUse(); n > h.base && n-h.base > h.peak {
			h.peak = n - h.base
		}
		select {
		case <-h.stop:
			return
		case <-tick.C:
		}
	}
}

// Growth stops the watch and returns the largest rise it saw, in bytes.
func (h *HeapWatch) Growth() uint64 {
	close(h.stop)
	<-h.done
	return h.peak
}

func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// PatternReader yields Size bytes of a repeating pattern without ever
// holding more than one block of it, to stream bodies larger than a test
// may allocate. Exported for package capture_test.
type PatternReader struct {
	Size  int64
	block []byte
	off   int
}

// PatternPeriod is the length after which a PatternReader's stream repeats.
const PatternPeriod = 16

// patternBlock is the stretch of the pattern a PatternReader copies from: a
// large one, so that a read costs a copy or two however big it is.
const patternBlock = 4096 * PatternPeriod

// PatternByte is byte i of every PatternReader's stream.
func PatternByte(i int64) byte { return "0123456789abcdef"[i%PatternPeriod] }

func (p *PatternReader) Read(b []byte) (int, error) {
	if p.Size <= 0 {
		return 0, io.EOF
	}
	if p.block == nil {
		p.block = make([]byte, patternBlock)
		for i := range p.block {
			p.block[i] = PatternByte(int64(i))
		}
	}
	if int64(len(b)) > p.Size {
		b = b[:p.Size]
	}
	n := 0
	for n < len(b) {
		c := copy(b[n:], p.block[p.off:])
		n += c
		p.off = (p.off + c) % patternBlock
	}
	p.Size -= int64(n)
	return n, nil
}
