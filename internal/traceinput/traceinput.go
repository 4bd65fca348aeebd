// Package traceinput makes the trace files a command was given readable as
// often as it needs: a pipe or /dev/stdin is read once and spooled to a
// temporary file, anything that is not a file or a pipe is refused.
package traceinput

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
)

// Input is one trace a command was given: Name as given, which the
// reports and the ledger show, and Path, the file that is read, which is
// Name itself for a regular file.
type Input struct {
	Name, Path string
}

// Open makes every trace readable as often as the command needs
// (judged, then digested for the ledger, then read for its tools): a
// regular file is read where it is; a FIFO, a pipe or another character
// device (/dev/stdin) can be read once only, so it is copied into a
// temporary file as it is read; a directory, a socket or anything else is
// refused with exit 2. The returned cleanup removes the copies.
func Open(names []string) ([]Input, func(), error) {
	var spool string
	cleanup := func() {
		if spool != "" {
			os.RemoveAll(spool)
		}
	}
	out := make([]Input, 0, len(names))
	for _, name := range names {
		info, err := os.Stat(name)
		if err != nil {
			cleanup()
			return nil, nil, exitcode.New(exitcode.Usage, "cannot read trace %s: %v", name, pathError(err))
		}
		mode := info.Mode()
		switch {
		case mode.IsRegular():
			out = append(out, Input{Name: name, Path: name})
			continue
		case mode&(os.ModeNamedPipe|os.ModeCharDevice) == 0:
			cleanup()
			return nil, nil, exitcode.New(exitcode.Usage, "cannot read trace %s: %s, not a file; give a trace file, a pipe or /dev/stdin", name, kindOf(mode))
		}
		if spool == "" {
			if spool, err = os.MkdirTemp("", "mcpverdict-input-"); err != nil {
				return nil, nil, exitcode.New(exitcode.Usage, "cannot copy trace %s: %v", name, pathError(err))
			}
		}
		path := filepath.Join(spool, fmt.Sprintf("%d-%s", len(out), filepath.Base(name)))
		if err := copyOnce(name, path); err != nil {
			cleanup()
			return nil, nil, exitcode.New(exitcode.Usage, "cannot read trace %s: %v", name, pathError(err))
		}
		out = append(out, Input{Name: name, Path: path})
	}
	return out, cleanup, nil
}

func copyOnce(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func kindOf(mode os.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&os.ModeSocket != 0:
		return "a socket"
	case mode&os.ModeDevice != 0:
		return "a block device"
	}
	return "not a regular file"
}

// Paths are the files to read, in the order given.
func Paths(inputs []Input) []string {
	out := make([]string, len(inputs))
	for i, in := range inputs {
		out[i] = in.Path
	}
	return out
}

// Names maps each copy to the name it was given, for the ledger.
func Names(inputs []Input) map[string]string {
	out := map[string]string{}
	for _, in := range inputs {
		if in.Path != in.Name {
			out[in.Path] = in.Name
		}
	}
	return out
}

// pathError is err without the path an os.PathError repeats, since every
// message here names the trace as given.
func pathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
