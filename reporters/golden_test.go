package reporters

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
)

var update = flag.Bool("update", false, "rewrite the golden files under reporters/testdata (and re-judge the corpus inputs)")

// corpusCases are corpus traces whose judged reports are kept, as JSON,
// under testdata/: each is both the input of every other format's golden
// and the golden of the json format. Only -update judges them again, so a
// change to the judge never moves these goldens by surprise.
var corpusCases = []string{
	"violations/base-request-id-reuse",
	"violations/trans-http26-invalid-annotations",
	"violations/wire-2025-result-judged-as-2026",
	"violations/tasks-results-2025-11-25",
}

// goldenExt is the golden file's extension per format.
var goldenExt = map[string]string{
	"text": "txt", "json": "json", "sarif": "sarif", "junit": "junit.xml", "markdown": "md", "github": "github.txt", "html": "html",
}

// testRepo is the checkout the goldens are placed in: a fixed root, so the
// goldens do not depend on where the tests run.
func testRepo() *Repository {
	return &Repository{
		Root: "/src/repo", WorkDir: "/src/repo", Workflow: ".github/workflows/mcp.yml",
		FindTool: func(name string) (string, int, bool) {
			if name == "echo" || name == "bad" {
				return "src/tools/" + name + ".ts", 12, true
			}
			return "", 0, false
		},
	}
}

func goldenOptions() Options {
	return Options{Repo: testRepo(), Category: "mcpverdict/golden"}
}

// withoutAssets stands a comment in for the page's script and style, which
// are files of their own (reporters/html): the golden holds the page and
// its data, and the policy's hashes still change with either file.
func withoutAssets(page []byte) []byte {
	page = bytes.Replace(page, []byte(htmlScript), []byte("/* reporters/html/report.js */"), 1)
	return bytes.Replace(page, []byte(htmlStyle), []byte("/* reporters/html/report.css */"), 1)
}

// readFromModule reads a trace the goldens name relative to the module
// root, as the corpus reports do, wherever the test runs.
func readFromModule(path string) ([]trace.Event, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(moduleRoot(), path)
	}
	return trace.ReadFile(path)
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

func TestGoldens(t *testing.T) {
	cases := map[string]*judge.Report{"synthetic": syntheticReport()}
	for _, c := range corpusCases {
		cases[filepath.Base(c)] = corpusReport(t, c)
	}
	for name, rep := range cases {
		for _, format := range Names() {
			t.Run(name+"/"+format, func(t *testing.T) {
				got := render(t, format, rep, goldenOptions())
				if format == "html" {
					got = withoutAssets(got)
				}
				checkGolden(t, filepath.Join("testdata", name+"."+goldenExt[format]), got)
			})
		}
	}
}

func render(t *testing.T, format string, rep *judge.Report, opts Options) []byte {
	t.Helper()
	r, err := Get(format)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	doc := ForClauses(rep)
	doc.ReadTrace = readFromModule
	if err := r.Write(&buf, doc, opts); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return buf.Bytes()
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reporters -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what the reporter writes now (go test ./reporters -update rewrites it); got:\n%s", path, firstDiff(got, want))
	}
}

// firstDiff shows the written text around the first byte that differs.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo, hi := max(0, i-200), min(len(got), i+200)
	return string(got[lo:hi])
}

// corpusReport reads the kept report of a corpus trace, judging the trace
// anew under -update.
func corpusReport(t *testing.T, name string) *judge.Report {
	t.Helper()
	path := filepath.Join("testdata", filepath.Base(name)+".json")
	if *update {
		rep := judgeCorpus(t, name)
		data := render(t, "json", rep, Options{})
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reporters -update)", err)
	}
	var rep judge.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &rep
}

func judgeCorpus(t *testing.T, name string) *judge.Report {
	t.Helper()
	rel := filepath.ToSlash(filepath.Join("corpus", name+".jsonl"))
	f, err := os.Open(filepath.Join(moduleRoot(), rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opts := judge.Options{Version: "golden", Schemas: schemas(t)}
	return judge.Judge([]judge.Input{{Name: rel, Next: trace.NewReader(f, rel).Next}}, opts)
}

// schemas loads the wire schemas the tests read from ../shared/mcp-spec (or
// MCPVERDICT_SCHEMA_DIR).
func schemas(t *testing.T) map[string]*wireschema.Validator {
	t.Helper()
	dirs := wireschema.Candidates(os.Getenv(wireschema.EnvDir), filepath.Join(moduleRoot(), "..", "shared", "mcp-spec", "schema"))
	out := map[string]*wireschema.Validator{}
	for _, rev := range spec.Revisions {
		path, err := wireschema.Find(dirs, rev)
		if err != nil {
			t.Fatalf("wire schema for %s: %v", rev, err)
		}
		v, err := wireschema.Load(path, rev)
		if err != nil {
			t.Fatal(err)
		}
		out[rev] = v
	}
	return out
}
