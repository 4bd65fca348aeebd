package merge_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/ledger"
)

// merged is a merged folder of alpha, beta and gamma, made once per test.
func merged(t *testing.T) string {
	t.Helper()
	alpha, beta, gamma := fleet(t)
	out := filepath.Join(t.TempDir(), "merged")
	if code, _, stderr := runCLI(t, "merge", alpha, beta, gamma, "--out", out); code != 1 {
		t.Fatalf("merge exited %d: %s", code, stderr)
	}
	return out
}

// tampers change one job's copy in the merged folder, each in its own way.
var tampers = map[string]func(t *testing.T, job string){
	// One byte of a block's record: the chain breaks there.
	"a block edited": func(t *testing.T, job string) {
		p := filepath.Join(job, "ledger.ndjson")
		b := read(t, p)
		edited := bytes.Replace(b, []byte(`"tool":"mcpverdict"`), []byte(`"tool":"mcpverdicT"`), 1)
		if bytes.Equal(edited, b) {
			t.Fatal("no provenance block to edit")
		}
		write(t, p, edited)
	},
	// A chain rewritten whole and its head file with it: a chain that
	// verifies on its own, but not to the head the merged ledger names.
	"the chain rewritten with its head": func(t *testing.T, job string) {
		var buf bytes.Buffer
		w := ledger.NewWriter(&buf)
		if _, err := w.Append("provenance", map[string]string{"tool": "someone else"}); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(job, "ledger.ndjson"), buf.Bytes())
		write(t, filepath.Join(job, "ledger.head"), []byte(w.Head()+"\n"))
	},
	"the last block cut off": func(t *testing.T, job string) {
		p := filepath.Join(job, "ledger.ndjson")
		b := bytes.TrimSuffix(read(t, p), []byte("\n"))
		write(t, p, b[:bytes.LastIndexByte(b, '\n')+1])
	},
	"the head file changed": func(t *testing.T, job string) {
		write(t, filepath.Join(job, "ledger.head"), []byte("sha256:"+strings.Repeat("0", 64)+"\n"))
	},
	"the report edited": func(t *testing.T, job string) {
		p := filepath.Join(job, "report.json")
		write(t, p, bytes.Replace(read(t, p), []byte(`"verdict": "`), []byte(`"verdict":  "`), 1))
	},
	"the ledger removed": func(t *testing.T, job string) {
		if err := os.Remove(filepath.Join(job, "ledger.ndjson")); err != nil {
			t.Fatal(err)
		}
	},
}

// Tampering with any job's chain, in any way, is refused by ledger verify
// on the merged ledger, and the refusal names that job and no other.
func TestTamperingWithAnyJobIsRefusedNamingIt(t *testing.T) {
	base := merged(t)
	jobs := []string{"alpha", "beta", "gamma"}
	if code, out, errOut := verify(t, base); code != 0 {
		t.Fatalf("the untouched merged ledger: exit %d\n%s%s", code, out, errOut)
	}
	for how, tamper := range tampers {
		for _, job := range jobs {
			t.Run(job+"/"+how, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "merged")
				copyDir(t, base, dir)
				tamper(t, filepath.Join(dir, "jobs", job))
				code, _, stderr := verify(t, dir)
				if code != 1 {
					t.Fatalf("verify exited %d, want 1; stderr:\n%s", code, stderr)
				}
				if !strings.Contains(stderr, `job "`+job+`"`) {
					t.Errorf("the refusal does not name job %s:\n%s", job, stderr)
				}
				for _, other := range jobs {
					if other != job && strings.Contains(stderr, `job "`+other+`"`) {
						t.Errorf("the refusal names job %s too:\n%s", other, stderr)
					}
				}
			})
		}
	}
}

// The merged report and the merged chain are held too.
func TestTamperingWithTheMergedFilesIsRefused(t *testing.T) {
	base := merged(t)
	for name, tamper := range map[string]func(dir string){
		"report.json": func(dir string) {
			write(t, filepath.Join(dir, "report.json"), append(read(t, filepath.Join(dir, "report.json")), ' '))
		},
		"a job block": func(dir string) {
			p := filepath.Join(dir, "ledger.ndjson")
			write(t, p, bytes.Replace(read(t, p), []byte(`"name":"beta"`), []byte(`"name":"betb"`), 1))
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "merged")
			copyDir(t, base, dir)
			tamper(dir)
			if code, _, stderr := verify(t, dir); code != 1 {
				t.Errorf("verify exited %d, want 1:\n%s", code, stderr)
			}
		})
	}
}

func verify(t *testing.T, dir string) (int, string, string) {
	t.Helper()
	return runCLI(t, "ledger", "verify", "--ledger", filepath.Join(dir, "ledger.ndjson"), "--expected-head", filepath.Join(dir, "ledger.head"))
}

func write(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
