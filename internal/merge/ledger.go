package merge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
)

// The block types of a merged ledger, after its provenance: one job block
// per job, then the merged report's.
const (
	JobBlock    = "job"
	ReportBlock = "merged_report"
)

// JobsDir is the folder of a merged folder that holds each job's copy.
const JobsDir = "jobs"

// FileDigest names a file of the merged folder, relative to it, and its
// SHA-256.
type FileDigest struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// LedgerRef is a job's ledger as its job block names it: the file, its
// digest, and the head its chain must reach.
type LedgerRef struct {
	FileDigest
	Head   string `json:"head"`
	Blocks int    `json:"blocks"`
}

// JobRecord is the record of a job block: the job, its report, and its
// ledger and signed bundle when it came with them.
type JobRecord struct {
	Name    string        `json:"name"`
	Servers []string      `json:"servers"`
	Verdict judge.Verdict `json:"verdict"`
	Totals  judge.Totals  `json:"totals"`
	Report  FileDigest    `json:"report"`
	Ledger  *LedgerRef    `json:"ledger,omitempty"`
	Bundle  *FileDigest   `json:"bundle,omitempty"`
}

// ReportRecord is the record of the merged report's block.
type ReportRecord struct {
	FileDigest
	Verdict judge.Verdict `json:"verdict"`
	Totals  judge.Totals  `json:"totals"`
	Jobs    int           `json:"jobs"`
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// jobFile is a file of a job's copy, relative to the merged folder.
func jobFile(job, name string) string { return path.Join(JobsDir, job, name) }

// jobRecord describes a job whose ledger verified with blocks blocks.
func jobRecord(j *Job, servers []string, blocks int) JobRecord {
	rec := JobRecord{Name: j.Name, Servers: servers, Verdict: j.Report.Verdict, Totals: j.Report.Totals,
		Report: FileDigest{File: jobFile(j.Name, ReportFile), SHA256: digest(j.Raw)}}
	if j.Ledger != nil {
		rec.Ledger = &LedgerRef{FileDigest: FileDigest{File: jobFile(j.Name, LedgerFile), SHA256: digest(j.Ledger)}, Head: j.Head, Blocks: blocks}
	}
	if j.Bundle != nil {
		rec.Bundle = &FileDigest{File: jobFile(j.Name, BundleFile), SHA256: digest(j.Bundle)}
	}
	return rec
}

// checkJobLedger verifies a job's ledger reaches the head it came with:
// a job whose chain is broken is not merged.
func checkJobLedger(j *Job) (int, error) {
	if j.Ledger == nil {
		return 0, nil
	}
	res, err := ledger.Verify(bytes.NewReader(j.Ledger), j.Head)
	if err != nil {
		return 0, fmt.Errorf("job %q: cannot read %s/%s: %v", j.Name, j.Dir, LedgerFile, err)
	}
	if !res.Intact() {
		return 0, fmt.Errorf("job %q: %s/%s does not verify against its %s (%s): download the job's artifact again, or rerun the job", j.Name, j.Dir, LedgerFile, HeadFile, res.Problems[0])
	}
	return res.Blocks, nil
}

// buildLedger writes the merged ledger: provenance, a block per job, the
// merged report's digest. It returns the ledger's bytes and head.
func buildLedger(prov ledger.Provenance, recs []JobRecord, report ReportRecord) ([]byte, string, error) {
	var buf bytes.Buffer
	w := ledger.NewWriter(&buf)
	if _, err := w.Append("provenance", prov); err != nil {
		return nil, "", err
	}
	for _, r := range recs {
		if _, err := w.Append(JobBlock, r); err != nil {
			return nil, "", err
		}
	}
	if _, err := w.Append(ReportBlock, report); err != nil {
		return nil, "", err
	}
	if err := w.Flush(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.Head(), nil
}
