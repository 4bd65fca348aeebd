package merge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Input that is no set of job folders is refused with one line naming the
// folder or file and what to do, exit 2 (1 for a job whose chain does not
// reach its head), and no merged folder is written.
func TestBadInputIsRefusedAndNothingIsWritten(t *testing.T) {
	cases := map[string]struct {
		setup func(t *testing.T, alpha, beta string) []string
		code  int
		says  []string
	}{
		"a file, not a folder": {func(t *testing.T, alpha, _ string) []string {
			return []string{alpha, filepath.Join(alpha, "report.json")}
		}, 2, []string{"report.json is not a folder", "give the output folder of a job"}},
		"a folder that does not exist": {func(t *testing.T, alpha, _ string) []string {
			return []string{alpha, filepath.Join(filepath.Dir(alpha), "nowhere")}
		}, 2, []string{"nowhere", "no such file"}},
		"a folder with no report": {func(t *testing.T, alpha, _ string) []string {
			empty := filepath.Join(filepath.Dir(alpha), "empty")
			os.Mkdir(empty, 0o755)
			return []string{alpha, empty}
		}, 2, []string{"empty has no report.json"}},
		"a malformed report": {func(t *testing.T, alpha, beta string) []string {
			write(t, filepath.Join(beta, "report.json"), []byte("{\n  \"tool\": \"mcpverdict\",\n  \"runs\": [,]\n}\n"))
			return []string{alpha, beta}
		}, 2, []string{"beta/report.json is not a report: line 3", "unedited"}},
		"a report of another tool": {func(t *testing.T, alpha, beta string) []string {
			write(t, filepath.Join(beta, "report.json"), []byte(`{"tool":"other","runs":[],"verdict":"pass"}`))
			return []string{alpha, beta}
		}, 2, []string{"beta/report.json is not an mcpverdict report"}},
		"an unreadable report": {func(t *testing.T, alpha, beta string) []string {
			p := filepath.Join(beta, "report.json")
			os.Remove(p)
			os.Mkdir(p, 0o755)
			return []string{alpha, beta}
		}, 2, []string{"beta/report.json", "is a directory"}},
		"a folder named with a terminal escape": {func(t *testing.T, alpha, _ string) []string {
			other := filepath.Join(filepath.Dir(alpha), "job\x1b[31m\u202e")
			copyDir(t, alpha, other)
			return []string{alpha, other}
		}, 2, []string{`the folder's name job\x1b[31m\u202e holds`, "name the job's artifact in plain text"}},
		"a folder merge wrote": {func(t *testing.T, alpha, beta string) []string {
			merged := filepath.Join(filepath.Dir(alpha), "mcpverdict-merged")
			if code, _, stderr := runCLI(t, "merge", alpha, beta, "--out", merged); code != 0 {
				t.Fatalf("merge exited %d: %s", code, stderr)
			}
			return []string{alpha, beta, merged}
		}, 2, []string{"mcpverdict-merged/report.json is a merged report", "give the jobs' own folders"}},
		"two jobs of one name": {func(t *testing.T, alpha, _ string) []string {
			other := filepath.Join(filepath.Dir(alpha), "second", "alpha")
			copyDir(t, alpha, other)
			return []string{alpha, other}
		}, 2, []string{"are both job \"alpha\"", "give each job's artifact its own name"}},
		"a ledger without its head": {func(t *testing.T, alpha, beta string) []string {
			os.Remove(filepath.Join(beta, "ledger.head"))
			return []string{alpha, beta}
		}, 2, []string{"beta has ledger.ndjson but no ledger.head", "download the job's whole artifact"}},
		"a head that is none": {func(t *testing.T, alpha, beta string) []string {
			write(t, filepath.Join(beta, "ledger.head"), []byte("not a head\n"))
			return []string{alpha, beta}
		}, 2, []string{"beta/ledger.head is not a ledger head"}},
		"a report changed after the job ran, its ledger left whole": {func(t *testing.T, alpha, beta string) []string {
			p := filepath.Join(beta, "report.json")
			write(t, p, []byte(strings.Replace(string(read(t, p)), `"verdict": "pass"`, `"verdict": "pass-with-warnings"`, 1)))
			return []string{alpha, beta}
		}, 1, []string{`job "beta"`, "report.json says pass-with-warnings", "its ledger.ndjson records pass", "changed after the job ran"}},
		"a job whose ledger does not reach its head": {func(t *testing.T, alpha, beta string) []string {
			write(t, filepath.Join(beta, "ledger.head"), []byte("sha256:"+strings.Repeat("1", 64)+"\n"))
			return []string{alpha, beta}
		}, 1, []string{`job "beta"`, "does not verify against its ledger.head"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			alpha, beta, _ := fleet(t)
			out := filepath.Join(t.TempDir(), "merged")
			args := append([]string{"merge", "--out", out}, c.setup(t, alpha, beta)...)
			code, stdout, stderr := runCLI(t, args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != 1 {
				t.Errorf("stderr has %d lines, want one:\n%s", lines, stderr)
			}
			for _, want := range c.says {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if stdout != "" {
				t.Errorf("stdout: %q, want nothing", stdout)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a merged folder was written (%v)", err)
			}
		})
	}
}

// merge with no folder at all is a usage error.
func TestMergeNeedsFolders(t *testing.T) {
	if code, _, stderr := runCLI(t, "merge"); code != 2 || !strings.Contains(stderr, "requires at least 1 arg") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// The merged folder cannot be one of the jobs' own.
func TestMergeRefusesAJobsFolderAsItsOutput(t *testing.T) {
	alpha, beta, _ := fleet(t)
	code, _, stderr := runCLI(t, "merge", alpha, beta, "--out", beta)
	if code != 2 || !strings.Contains(stderr, `is job "beta"'s own folder`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// A merged folder that cannot be written whole is taken back: no report,
// ledger or head is left as if the merge had been done.
func TestAFailedWriteLeavesNoMergedReport(t *testing.T) {
	alpha, beta, _ := fleet(t)
	out := filepath.Join(t.TempDir(), "merged")
	if err := os.MkdirAll(filepath.Join(out, "jobs"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(out, "jobs", "beta"), []byte("a file where beta's copy goes\n"))
	code, _, stderr := runCLI(t, "merge", alpha, beta, "--out", out)
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("exit %d, want 2 with one line: %s", code, stderr)
	}
	for _, f := range mergedFiles {
		if _, err := os.Stat(filepath.Join(out, f)); !os.IsNotExist(err) {
			t.Errorf("%s was left behind (%v)", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "jobs", "alpha", "report.json")); !os.IsNotExist(err) {
		t.Errorf("alpha's copy was left behind (%v)", err)
	}
}
