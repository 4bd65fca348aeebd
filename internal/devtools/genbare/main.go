// Command genbare writes corpus/bare/: every streamable-HTTP trace of
// corpus/violations and corpus/good as the core trace format of other
// recorders has it, without the exchange ids, streams and paths
// mcpverdict's recorder adds, and without the method of a POST, so that
// the judge is held to the same findings when it must tie messages to
// their HTTP requests by position. A trace whose exchanges interleave
// (SSE streams open side by side) cannot be tied by position; those are
// listed in skip.txt with why, and left out. Run it from the module root:
//
//	go run ./internal/devtools/genbare
//
// TestBareCorpusIsCurrent fails when corpus/bare is not what this writes.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("corpus", "corpus", "the corpus folder")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: genbare [-corpus corpus]")
		os.Exit(2)
	}
	files, err := Bare(*root)
	if err == nil {
		err = write(filepath.Join(*root, "bare"), files)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genbare:", err)
		os.Exit(1)
	}
}

// write replaces the .jsonl files of dir with files.
func write(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return err
	}
	for _, p := range old {
		if _, keep := files[filepath.Base(p)]; !keep {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			return err
		}
	}
	return nil
}
