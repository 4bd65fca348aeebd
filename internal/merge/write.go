package merge

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// The reports a merged folder holds, by format, named as the action names
// one job's.
var reportFiles = []struct{ format, file string }{
	{"json", ReportFile}, {"text", "report.txt"}, {"sarif", "mcpverdict.sarif"}, {"junit", "junit.xml"},
	{"markdown", "summary.md"}, {"github", "annotations.txt"},
}

// HTMLFile is the merged page, written after the ledger whose head it shows.
const HTMLFile = "report.html"

// Options say where the merged folder goes and what its ledger's
// provenance records.
type Options struct {
	Out string
	// Provenance opens the merged ledger: the merge's own run.
	Provenance ledger.Provenance
	// Category names the merged SARIF analysis.
	Category string
}

// Result is what a merge wrote.
type Result struct {
	Report *judge.Report
	// Files are the rendered reports by format.
	Files map[string][]byte
	Head  string
	// Status is the exit status check gives the merged verdict.
	Status int
}

// Write merges the jobs into opts.Out: everything is rendered and each
// job's ledger verified before the first file is written, and a folder
// left half-written by a failed write is taken back, so that a merged
// report is there whole or not at all.
func Write(jobs []*Job, opts Options) (*Result, error) {
	if err := checkOut(jobs, opts.Out); err != nil {
		return nil, err
	}
	res, files, err := render(jobs, opts)
	if err != nil {
		return nil, err
	}
	// The ledger and its head go last, once everything they vouch for is
	// there; the rest is written side by side, each file synced to disk.
	last := len(files) - 2
	if err := writeAll(opts.Out, files[:last]); err != nil {
		return nil, err
	}
	for i, f := range files[last:] {
		if err := outfile.WriteFileAll(filepath.Join(opts.Out, f.name), f.data); err != nil {
			removeAll(opts.Out, files[:last+i])
			return nil, exitcode.Wrap(exitcode.Usage, err)
		}
	}
	return res, nil
}

// writers bounds the files written at once.
const writers = 8

// writeAll writes files into dir on a few goroutines; on the first error
// every file is taken back.
func writeAll(dir string, files []namedFile) error {
	next := make(chan namedFile)
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for range min(writers, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range next {
				if err := outfile.WriteFileAll(filepath.Join(dir, filepath.FromSlash(f.name)), f.data); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	select {
	case err := <-errs:
		removeAll(dir, files)
		return exitcode.Wrap(exitcode.Usage, err)
	default:
		return nil
	}
}

func removeAll(dir string, files []namedFile) {
	for _, f := range files {
		os.Remove(filepath.Join(dir, filepath.FromSlash(f.name)))
	}
}

// checkOut refuses a merged folder that is one of the jobs' own.
func checkOut(jobs []*Job, out string) error {
	if out == "" {
		return exitcode.New(exitcode.Usage, "no output folder: give --out")
	}
	abs, _ := filepath.Abs(out)
	for _, j := range jobs {
		if d, _ := filepath.Abs(j.Dir); d == abs {
			return exitcode.New(exitcode.Usage, "--out %s is job %q's own folder: give the merged report a folder of its own", out, j.Name)
		}
	}
	return nil
}

type namedFile struct {
	name string
	data []byte
}

// render builds every file of the merged folder, the head last so that a
// folder is only taken for a merged one once everything else is there.
func render(jobs []*Job, opts Options) (*Result, []namedFile, error) {
	rep := Combine(jobs)
	rows := Rows(jobs)
	doc := &reporters.Document{Clauses: rep, Version: rep.Version, Jobs: rows, ReadTrace: traceReader(jobs)}
	for _, j := range jobs {
		doc.Probes = append(doc.Probes, j.Probes...)
	}
	ropts := reporters.Options{Category: opts.Category}
	if ropts.Category == "" {
		ropts.Category = "mcpverdict/merged"
	}
	res := &Result{Report: rep, Files: map[string][]byte{}, Status: Status(rep)}
	recs, files, err := jobCopies(jobs, rows)
	if err != nil {
		return nil, nil, err
	}
	for _, rf := range reportFiles {
		b, err := renderFormat(rf.format, doc, ropts)
		if err != nil {
			return nil, nil, err
		}
		res.Files[rf.format] = b
		files = append(files, namedFile{rf.file, b})
	}
	prov := opts.Provenance
	prov.WrittenAt = time.Now().UTC().Format(time.RFC3339)
	led, head, err := buildLedger(prov, recs, ReportRecord{FileDigest: FileDigest{File: ReportFile, SHA256: digest(res.Files["json"])},
		Verdict: rep.Verdict, Totals: rep.Totals, Jobs: len(jobs)})
	if err != nil {
		return nil, nil, exitcode.Wrap(exitcode.Usage, err)
	}
	res.Head = head
	doc.Ledger = &reporters.Ledger{Head: head}
	page, err := renderFormat("html", doc, ropts)
	if err != nil {
		return nil, nil, err
	}
	res.Files["html"] = page
	files = append(files, namedFile{HTMLFile, page}, namedFile{LedgerFile, led}, namedFile{HeadFile, []byte(head + "\n")})
	return res, files, nil
}

// jobCopies verifies each job's ledger and returns the job blocks and the
// jobs' copies in the merged folder.
func jobCopies(jobs []*Job, rows []reporters.JobRow) ([]JobRecord, []namedFile, error) {
	var files []namedFile
	var recs []JobRecord
	for i, j := range jobs {
		blocks, err := checkJobLedger(j)
		if err != nil {
			return nil, nil, exitcode.Wrap(exitcode.Fail, err)
		}
		recs = append(recs, jobRecord(j, rows[i].Servers, blocks))
		files = append(files, jobFiles(j)...)
	}
	return recs, files, nil
}

// jobFiles are a job's copy in the merged folder: what verifying the
// merged ledger reads.
func jobFiles(j *Job) []namedFile {
	out := []namedFile{{jobFile(j.Name, ReportFile), j.Raw}}
	if j.Ledger != nil {
		out = append(out, namedFile{jobFile(j.Name, LedgerFile), j.Ledger}, namedFile{jobFile(j.Name, HeadFile), []byte(j.Head + "\n")})
	}
	if j.Bundle != nil {
		out = append(out, namedFile{jobFile(j.Name, BundleFile), j.Bundle})
	}
	return out
}

func renderFormat(format string, doc *reporters.Document, opts reporters.Options) ([]byte, error) {
	rep, err := reporters.Get(format)
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, err)
	}
	var buf bytes.Buffer
	if err := rep.Write(&buf, doc, opts); err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, fmt.Errorf("cannot render the merged %s report: %w", format, err))
	}
	return buf.Bytes(), nil
}

// traceReader reads a merged run's trace, JOB/FILE, from the job's
// folder, for the page's timelines.
func traceReader(jobs []*Job) func(string) ([]trace.Event, error) {
	dirs := map[string]string{}
	for _, j := range jobs {
		dirs[j.Name] = j.Dir
	}
	return func(p string) ([]trace.Event, error) {
		job, file, _ := strings.Cut(p, "/")
		dir, ok := dirs[job]
		if !ok || file == "" {
			return nil, fmt.Errorf("%s is no job's trace", p)
		}
		return trace.ReadFile(filepath.Join(dir, file))
	}
}
