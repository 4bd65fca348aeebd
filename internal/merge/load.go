package merge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// The files of a job's output folder that merge reads, as check and the
// action name them.
const (
	ReportFile = "report.json"
	LedgerFile = "ledger.ndjson"
	HeadFile   = "ledger.head"
	BundleFile = HeadFile + ".sigstore.json"
)

// Job is one job's output folder, read.
type Job struct {
	// Name is the folder's base name: download-artifact names the folder
	// after the artifact, which a matrix names after its server.
	Name string
	// Dir is the folder as given.
	Dir string
	// Report is the job's clause report as report.json holds it, and
	// Raw its bytes, copied unchanged into the merged folder.
	Report *judge.Report
	Raw    []byte
	// Probes are the job's tool-annotation probe reports (check --probe),
	// read from probe/NAME/probe-report.json as report.json lists them.
	Probes []*probe.Report
	// Head is the job's ledger head and Ledger its bytes; both empty for a
	// job that wrote no ledger. Bundle is the Sigstore bundle signing the
	// head, when ledger sign left one.
	Head   string
	Ledger []byte
	Bundle []byte
}

// reportFile is report.json with what merge reads beside the clause report.
type reportFile struct {
	judge.Report
	Probes []struct {
		Definition probe.DefinitionInfo `json:"definition"`
	} `json:"probes"`
	// Jobs is set in a merged report: a merged folder is no job's.
	Jobs json.RawMessage `json:"jobs"`
}

// Load reads each folder; a folder without report.json, a report that is
// not one, or two folders of one name is a one-line error naming the
// folder and what to do.
func Load(dirs []string) ([]*Job, error) {
	if len(dirs) == 0 {
		return nil, exitcode.New(exitcode.Usage, "no job folders given: name the output folders of the jobs to merge (the downloaded artifacts)")
	}
	seen := map[string]string{}
	jobs := make([]*Job, 0, len(dirs))
	for _, dir := range dirs {
		job, err := loadJob(dir)
		if err != nil {
			return nil, exitcode.Wrap(exitcode.Usage, err)
		}
		if other, dup := seen[job.Name]; dup {
			return nil, exitcode.New(exitcode.Usage, "%s and %s are both job %q: give each job's artifact its own name (the folder's base name names the job)", other, dir, job.Name)
		}
		seen[job.Name] = dir
		jobs = append(jobs, job)
	}
	return jobs, nil
}

func loadJob(dir string) (*Job, error) {
	name := filepath.Base(filepath.Clean(dir))
	if name == "." || name == ".." || name == string(filepath.Separator) || strings.TrimSpace(name) == "" {
		return nil, fmt.Errorf("%s: cannot name a job after this folder: give the job's folder itself (its base name names the job)", dir)
	}
	if wiretext.Visible(name) != name {
		return nil, fmt.Errorf("%s: the folder's name %s holds what a reader would not see as written (a control or invisible character, or a leading \"::\"): name the job's artifact in plain text", dir, wiretext.Quote(name))
	}
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %v: give the output folder of a job (a downloaded artifact)", dir, unwrapPath(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a folder: give the output folder of a job (a downloaded artifact)", dir)
	}
	job := &Job{Name: name, Dir: dir}
	reportPath := filepath.Join(dir, ReportFile)
	if job.Raw, err = os.ReadFile(reportPath); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s has no %s: give a folder check or the action wrote (validate writes one with --json %s)", dir, ReportFile, reportPath)
		}
		return nil, fmt.Errorf("%s: %v", reportPath, unwrapPath(err))
	}
	if err := job.decode(reportPath); err != nil {
		return nil, err
	}
	return job, job.readLedger()
}

// decode reads report.json as the json format writes it.
func (j *Job) decode(path string) error {
	var rf reportFile
	dec := json.NewDecoder(bytes.NewReader(j.Raw))
	if err := dec.Decode(&rf); err != nil {
		return fmt.Errorf("%s is not a report: %s: give the report.json mcpverdict wrote, unedited", path, jsonProblem(j.Raw, err))
	}
	if rf.Tool != "mcpverdict" || rf.Runs == nil || rf.Verdict == "" {
		return fmt.Errorf("%s is not an mcpverdict report (no tool, runs and verdict): give the report.json mcpverdict wrote", path)
	}
	if rf.Jobs != nil {
		return fmt.Errorf("%s is a merged report (it has jobs): give the jobs' own folders, not the folder merge wrote", path)
	}
	if _, known := verdictRank[rf.Verdict]; !known {
		return fmt.Errorf("%s has an unknown verdict %q: give the report.json mcpverdict wrote, unedited", path, rf.Verdict)
	}
	j.Report = &rf.Report
	for _, p := range rf.Probes {
		rep, err := j.readProbe(p.Definition.Name)
		if err != nil {
			return err
		}
		j.Probes = append(j.Probes, rep)
	}
	return nil
}

// ProbeReportFile is where check keeps a probe's own report, under the
// job's folder.
func ProbeReportFile(definition string) string {
	return filepath.Join("probe", reporters.Slug(definition), "probe-report.json")
}

// readProbe reads the probe report check kept of a definition the job's
// report lists: without it the merged reports could not show the verdicts.
func (j *Job) readProbe(definition string) (*probe.Report, error) {
	path := filepath.Join(j.Dir, ProbeReportFile(definition))
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s lists the probe %s but %s is missing: download the job's whole artifact", filepath.Join(j.Dir, ReportFile), wiretext.Quote(definition), path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPath(err))
	}
	var rep probe.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s is not a probe report: %s: give the probe-report.json mcpverdict wrote, unedited", path, jsonProblem(b, err))
	}
	return &rep, nil
}

// jsonProblem says what is wrong with a JSON document, with its line.
func jsonProblem(b []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 || off > int64(len(b)) {
		return err.Error()
	}
	line := 1 + bytes.Count(b[:off], []byte("\n"))
	return fmt.Sprintf("line %d: %v", line, err)
}

// readLedger reads the job's ledger, head and bundle: a ledger without its
// head, or a head without its ledger, is refused, since neither can be
// verified alone.
func (j *Job) readLedger() error {
	ledgerPath, headPath := filepath.Join(j.Dir, LedgerFile), filepath.Join(j.Dir, HeadFile)
	led, ledErr := readOptional(ledgerPath)
	head, headErr := readOptional(headPath)
	if ledErr != nil {
		return ledErr
	}
	if headErr != nil {
		return headErr
	}
	switch {
	case led == nil && head == nil:
		return nil
	case head == nil:
		return fmt.Errorf("%s has %s but no %s: download the job's whole artifact", j.Dir, LedgerFile, HeadFile)
	case led == nil:
		return fmt.Errorf("%s has %s but no %s: download the job's whole artifact", j.Dir, HeadFile, LedgerFile)
	}
	j.Ledger, j.Head = led, strings.TrimSpace(string(head))
	if !headPattern(j.Head) {
		return fmt.Errorf("%s is not a ledger head (sha256: and 64 lowercase hex digits): download the job's artifact again", headPath)
	}
	bundle, err := readOptional(filepath.Join(j.Dir, BundleFile))
	j.Bundle = bundle
	return err
}

// readOptional reads a file that may be missing (nil, nil).
func readOptional(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPath(err))
	}
	return b, nil
}

func headPattern(s string) bool {
	const prefix = "sha256:"
	if len(s) != len(prefix)+64 || !strings.HasPrefix(s, prefix) {
		return false
	}
	for _, c := range s[len(prefix):] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
