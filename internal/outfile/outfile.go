// Package outfile writes output files whole or not at all: into a temporary
// file beside the destination, renamed over it only once complete, so that a
// failed run never leaves a half-written report, ledger, head or lockfile
// behind. Every file it writes is 0644: a later step of the workflow may run
// as another user and must read what this one wrote.
package outfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// File is an output being written; nothing appears at its path until Commit.
type File struct {
	*os.File
	path string
	done bool
}

// Create starts writing path.
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	return &File{File: tmp, path: path}, nil
}

// Commit makes the file appear at its path.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	if err := f.File.Sync(); err != nil {
		return f.fail(err)
	}
	if err := f.File.Close(); err != nil {
		return f.fail(err)
	}
	if err := os.Chmod(f.File.Name(), 0o644); err != nil {
		return f.fail(err)
	}
	if err := os.Rename(f.File.Name(), f.path); err != nil {
		return f.fail(err)
	}
	return nil
}

// Abort removes the temporary file; it is a no-op after Commit, so it can be
// deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.File.Name())
}

func (f *File) fail(err error) error {
	os.Remove(f.File.Name())
	return fmt.Errorf("cannot write %s: %w", f.path, unwrapPath(err))
}

// unwrapPath drops the temporary file's name from an error: the message
// names the destination.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// WriteFile writes data to path whole or not at all; path's directory
// must exist.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	return f.Commit()
}

// WriteFileAll is WriteFile that first creates path's directory (0755) when
// it is missing.
func WriteFileAll(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", filepath.Dir(path), unwrapPath(err))
	}
	return WriteFile(path, data)
}
