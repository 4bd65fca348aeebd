package capture

import (
	"io"
	"os"
)

// TraceFile is where a recorder's lines go: f itself, or, where the
// operating system allows, a writer that copies each line into a shared
// mapping of f (see tracefile_linux.go). Close it, not f, and check its
// error: a mapped trace is cut to the length of its lines only then.
func TraceFile(f *os.File) io.WriteCloser {
	if m := mapTrace(f); m != nil {
		return m
	}
	return f
}
