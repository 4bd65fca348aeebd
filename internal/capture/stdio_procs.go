package capture

import "runtime"

// minStdioProcs is the GOMAXPROCS that spares a wrapper's blocking reads
// the runtime's attention.
//
// Each pump waits for the next message in a blocking read(2), and a
// goroutine in a system call keeps its P. With no more Ps than blocked
// reads (2 on a 2-CPU machine: the client's stdin and the server's
// stdout), none is idle, so sysmon takes the P of any read blocked for
// over 20 µs and hands it to another thread, and the read, once it
// returns, must get a P back through the scheduler: thread wakes and
// futex calls for every message that a busy server is slow to answer,
// and sysmon, finding that work each time, keeps polling every 20 µs.
// With a P to spare, sysmon leaves a P in a system call alone (for up to
// 10 ms). Four: the two pumps, the wait for the server's exit, which also
// blocks in a system call, and one idle.
const minStdioProcs = 4

// RaiseProcsForStdio raises GOMAXPROCS to minStdioProcs in a process whose
// work is one stdio wrapper (mcpverdict capture stdio). Ps are not CPUs:
// the extra ones stay idle while the pumps block, which is their purpose.
func RaiseProcsForStdio() {
	if runtime.GOMAXPROCS(0) < minStdioProcs {
		runtime.GOMAXPROCS(minStdioProcs)
	}
}
