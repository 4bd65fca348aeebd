package architecture

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/mcpverdict/mcpverdict/"

// layers places every package of the module, from the foundation up: the
// pieces every layer shares (the example server and the probe's fixture
// servers among them, which the binary runs), the trace file format, recording and driving
// sessions, the judges of what was recorded (clauses, probes, evidence),
// the reports, the action, the command line, and what only builds, tests
// or measures. A package may import its own layer and the ones below.
var layers = []struct {
	name     string
	prefixes []string
}{
	{"shared pieces", []string{"internal/rawjson", "internal/canon", "internal/outfile", "internal/sse", "internal/jsonrpc",
		"internal/spec", "internal/wiretext", "internal/exitcode", "internal/provenance", "internal/toolsource",
		"internal/rawschema", "internal/wireschema", "internal/tracegen", "internal/testserver", "internal/exampleserver", "internal/progress",
		"corpus/probe/fixtures"}},
	{"trace format", []string{"internal/trace", "internal/traceinput"}},
	{"capture and driver", []string{"internal/capture", "internal/driver"}},
	{"judge, probe, evidence", []string{"internal/judge", "internal/probe", "internal/evidence", "internal/ledger", "internal/sign", "internal/baseline"}},
	{"reporters", []string{"reporters", "internal/serve", "internal/merge"}},
	{"action", []string{"internal/action"}},
	{"command line", []string{"internal/cli"}},
	{"binaries and tests", []string{"cmd", "internal/devtools", "internal/e2e", "internal/architecture", "internal/browser"}},
}

// layerOf is the index of the layer a module package belongs to, or -1.
func layerOf(pkg string) int {
	rel := strings.TrimPrefix(pkg, module)
	for i, l := range layers {
		for _, p := range l.prefixes {
			if rel == p || strings.HasPrefix(rel, p+"/") {
				return i
			}
		}
	}
	return -1
}

// No package imports a package of a higher layer, and every package has a
// layer (a new one is placed in the table above, and in
// docs/architecture.md, when it is added).
func TestImportsRunDownTheLayers(t *testing.T) {
	graph := importGraph(t)
	if len(graph) < 30 {
		t.Fatalf("go list found %d packages; the listing is broken", len(graph))
	}
	var pkgs []string
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		from := layerOf(p)
		if from < 0 {
			t.Errorf("%s has no layer: add it to the table in layers_test.go and to docs/architecture.md", p)
			continue
		}
		for _, imp := range graph[p] {
			if to := layerOf(imp); to > from {
				t.Errorf("%s (%s) imports %s (%s), a higher layer", p, layers[from].name, imp, layers[to].name)
			}
		}
	}
}

// The check itself can fail: an import from the trace format up to the
// judge is caught.
func TestAnUpwardImportIsCaught(t *testing.T) {
	if from, to := layerOf(module+"internal/trace"), layerOf(module+"internal/judge/message"); to <= from {
		t.Fatalf("trace (%d) importing judge/message (%d) would pass", from, to)
	}
}

// importGraph maps each package of the module to the module packages it
// imports, tests' imports left out: a test may reach up to drive the layer
// it tests.
func importGraph(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = moduleRoot()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		var own []string
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, module) {
				own = append(own, imp)
			}
		}
		graph[fields[0]] = own
	}
	return graph
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}
