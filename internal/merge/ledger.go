package merge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	if p := reportMatchesLedger(j.Report, j.Ledger); p != "" {
		return 0, fmt.Errorf("job %q: %s/%s: download the job's artifact again, or rerun the job", j.Name, j.Dir, p)
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

// ledgerVerdict is the verdict and totals the last clause_report block of
// a job's ledger records (check and validate write one), or nil.
func ledgerVerdict(led []byte) *ledgerReport {
	var last *ledgerReport
	for _, line := range bytes.Split(led, []byte("\n")) {
		if !bytes.Contains(line, []byte(`"type":"clause_report"`)) {
			continue
		}
		var block struct {
			Record ledgerReport `json:"record"`
			Type   string       `json:"type"`
		}
		if json.Unmarshal(line, &block) == nil && block.Type == "clause_report" {
			rec := block.Record
			last = &rec
		}
	}
	return last
}

type ledgerReport struct {
	Verdict judge.Verdict `json:"verdict"`
	Totals  judge.Totals  `json:"totals"`
}

// reportMatchesLedger says how a job's report.json differs from what its
// ledger recorded of it, or "": a report edited after the job ran, its
// ledger left whole, would otherwise pass for the job's.
func reportMatchesLedger(rep *judge.Report, led []byte) string {
	rec := ledgerVerdict(led)
	if rec == nil {
		return ""
	}
	if rec.Verdict != rep.Verdict || rec.Totals != rep.Totals {
		return fmt.Sprintf("%s says %s (%d pass, %d fail, %d warn), its %s records %s (%d pass, %d fail, %d warn): the report was changed after the job ran",
			ReportFile, rep.Verdict, rep.Totals.Pass, rep.Totals.Fail, rep.Totals.Warn, LedgerFile, rec.Verdict, rec.Totals.Pass, rec.Totals.Fail, rec.Totals.Warn)
	}
	return ""
}
