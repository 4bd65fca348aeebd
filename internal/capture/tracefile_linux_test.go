package capture

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func createMapped(t *testing.T) (*mappedTrace, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := TraceFile(f).(*mappedTrace)
	if !ok {
		t.Fatalf("TraceFile of a new regular file is %T, want a mapped trace", TraceFile(f))
	}
	return m, path
}

// Lines that cross chunk boundaries reach the file whole, in order, and
// Close cuts it to their length.
func TestMappedTraceWritesAcrossChunks(t *testing.T) {
	m, path := createMapped(t)
	var want bytes.Buffer
	line := []byte(`{"seq":0,"event":"message","payload":{"x":"` + strings.Repeat("y", 300) + `"}}` + "\n")
	for want.Len() < 2*traceChunk+traceChunk/3 {
		if n, err := m.Write(line); err != nil || n != len(line) {
			t.Fatalf("Write = %d, %v", n, err)
		}
		want.Write(line)
	}
	inFlight, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(inFlight) != 3*traceChunk || !bytes.HasPrefix(inFlight, want.Bytes()) {
		t.Fatalf("before Close: %d bytes, want the lines padded to %d", len(inFlight), 3*traceChunk)
	}
	if len(bytes.Trim(inFlight[want.Len():], "\x00")) != 0 {
		t.Fatal("before Close: the padding after the lines is not all zeros")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("after Close: %d bytes, want exactly the %d written", len(got), want.Len())
	}
	if err := m.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestMappedTraceEmptyCloses(t *testing.T) {
	m, path := createMapped(t)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Size() != 0 {
		t.Fatalf("an empty trace after Close: %v, %v", info, err)
	}
}

// A file cut short under the recorder makes the next write fail with an
// error naming the file, where an unguarded copy would kill the process.
func TestMappedTraceTruncatedUnderIt(t *testing.T) {
	m, path := createMapped(t)
	if _, err := m.Write([]byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	_, err := m.Write([]byte("{}\n"))
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("write after the file was cut: %v, want an error naming %s", err, path)
	}
	if _, again := m.Write([]byte("{}\n")); again == nil {
		t.Fatal("a later write succeeded after the mapping failed")
	}
	m.Close()
}

// Only a new regular file is mapped: a pipe, or a file that already holds
// something, is written as it is.
func TestTraceFileLeavesOthersUnmapped(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if got := TraceFile(w); got != w {
		t.Errorf("TraceFile of a pipe is %T, want the pipe itself", got)
	}
	path := filepath.Join(t.TempDir(), "held")
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := TraceFile(f); got != f {
		t.Errorf("TraceFile of a file that holds bytes is %T, want the file itself", got)
	}
}
