package architecture

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxPackageLines bounds the code of one package, its tests left out: a
// package past it holds more than one reader keeps in mind, and is split
// along its seams (as the judge is into engine, message view and rule
// folders).
const maxPackageLines = 4000

// No package of the module holds more than maxPackageLines lines of code.
func TestNoPackageIsOverTheSizeLimit(t *testing.T) {
	sizes := packageSizes(t)
	total := 0
	for pkg, n := range sizes {
		total += n
		if n > maxPackageLines {
			t.Errorf("%s holds %d lines of code, more than %d: split it along its seams (docs/architecture.md)", pkg, n, maxPackageLines)
		}
	}
	if total < 20000 {
		t.Fatalf("counted %d lines in %d packages; the count is broken", total, len(sizes))
	}
}

// packageSizes counts the lines of each package's Go files, tests left out.
func packageSizes(t *testing.T) map[string]int {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{.Dir}} {{join .GoFiles \" \"}}", "./...")
	cmd.Dir = moduleRoot()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	sizes := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		for _, name := range fields[2:] {
			src, err := os.ReadFile(filepath.Join(fields[1], name))
			if err != nil {
				t.Fatal(err)
			}
			sizes[fields[0]] += bytes.Count(src, []byte("\n"))
		}
	}
	return sizes
}
