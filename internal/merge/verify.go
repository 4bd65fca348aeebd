package merge

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
)

// Check is what verifying a merged ledger's jobs found.
type Check struct {
	// Jobs counts the job blocks; none means the ledger is no merged one.
	Jobs int
	// Problems names, for each job whose chain does not hold, the job and
	// what is wrong.
	Problems []string
}

// VerifyJobs checks each job block of an intact merged ledger down to the
// job's own chain: the job's copy of its ledger has the digest the block
// names and verifies to the head the block names, its head file says that
// head, its report and bundle have the digests named; and the merged
// report has its block's digest. Files are read beside the ledger.
func VerifyJobs(ledgerPath string) (*Check, error) {
	f, err := os.Open(ledgerPath)
	if err != nil {
		return nil, fmt.Errorf("cannot read the ledger: %w", err)
	}
	defer f.Close()
	dir := filepath.Dir(ledgerPath)
	out := &Check{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var block struct {
			Type   string          `json:"type"`
			Record json.RawMessage `json:"record"`
		}
		if json.Unmarshal(sc.Bytes(), &block) != nil {
			continue // ledger.Verify has said what is wrong with the line
		}
		switch block.Type {
		case JobBlock:
			out.Jobs++
			var rec JobRecord
			if err := json.Unmarshal(block.Record, &rec); err != nil {
				out.Problems = append(out.Problems, fmt.Sprintf("job block %d: not a job record: %v", out.Jobs, err))
				continue
			}
			out.Problems = append(out.Problems, verifyJob(dir, &rec)...)
		case ReportBlock:
			var rec ReportRecord
			if err := json.Unmarshal(block.Record, &rec); err != nil {
				out.Problems = append(out.Problems, fmt.Sprintf("merged report block: %v", err))
				continue
			}
			if p := checkDigest(dir, rec.FileDigest); p != "" {
				out.Problems = append(out.Problems, "merged report: "+p)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot read the ledger %s: %w", ledgerPath, err)
	}
	return out, nil
}

// verifyJob checks one job's copy; every problem names the job.
func verifyJob(dir string, rec *JobRecord) []string {
	var problems []string
	add := func(p string) {
		if p != "" {
			problems = append(problems, fmt.Sprintf("job %q: %s", rec.Name, p))
		}
	}
	add(checkDigest(dir, rec.Report))
	if rec.Bundle != nil {
		add(checkDigest(dir, *rec.Bundle))
	}
	if rec.Ledger == nil {
		return problems
	}
	add(checkDigest(dir, rec.Ledger.FileDigest))
	p, ok := inside(dir, rec.Ledger.File)
	if !ok {
		return problems
	}
	res, err := ledger.VerifyFile(p, rec.Ledger.Head)
	if err != nil {
		add(err.Error())
		return problems
	}
	for _, pr := range res.Problems {
		add(rec.Ledger.File + ": " + pr)
	}
	add(copiedReportMatches(dir, rec))
	headPath := path.Join(path.Dir(rec.Ledger.File), HeadFile)
	if hp, ok := inside(dir, headPath); ok {
		b, err := os.ReadFile(hp)
		switch {
		case err != nil:
			add(fmt.Sprintf("cannot read %s: %v", headPath, unwrapPath(err)))
		case strings.TrimSpace(string(b)) != rec.Ledger.Head:
			add(fmt.Sprintf("%s says %q, the merged ledger's block names %q", headPath, strings.TrimSpace(string(b)), rec.Ledger.Head))
		}
	}
	return problems
}

// checkDigest says what is wrong with a file a block names, or "".
func checkDigest(dir string, fd FileDigest) string {
	p, ok := inside(dir, fd.File)
	if !ok {
		return fmt.Sprintf("%q is not a file of the merged folder", fd.File)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Sprintf("cannot read %s: %v (keep the merged folder whole)", fd.File, unwrapPath(err))
	}
	if got := digest(b); got != fd.SHA256 {
		return fmt.Sprintf("%s hashes to %s, the merged ledger's block names %s: it was changed after the merge", fd.File, got, fd.SHA256)
	}
	return ""
}

// inside is a block's relative file name as a path under dir; a name that
// would leave it is refused.
func inside(dir, name string) (string, bool) {
	if name == "" || path.IsAbs(name) || !filepath.IsLocal(filepath.FromSlash(name)) {
		return "", false
	}
	return filepath.Join(dir, filepath.FromSlash(name)), true
}

// copiedReportMatches says how the job's copied report differs from what
// its copied ledger recorded of it, or "".
func copiedReportMatches(dir string, rec *JobRecord) string {
	rp, ok1 := inside(dir, rec.Report.File)
	lp, ok2 := inside(dir, rec.Ledger.File)
	if !ok1 || !ok2 {
		return ""
	}
	rb, err1 := os.ReadFile(rp)
	lb, err2 := os.ReadFile(lp)
	var rep judge.Report
	if err1 != nil || err2 != nil || json.Unmarshal(rb, &rep) != nil {
		return "" // checkDigest has said what is wrong with the files
	}
	return reportMatchesLedger(&rep, lb)
}
