package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/canon"
	"github.com/mcpverdict/mcpverdict/internal/evidence"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
	"github.com/mcpverdict/mcpverdict/internal/provenance"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/internal/traceinput"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// The files a run's evidence lands in, inside its output directory.
const (
	LedgerFile           = "ledger.ndjson"
	HeadFile             = "ledger.head"
	ContractFindingsFile = "contract-findings.json"
)

// evidenceFlags are the evidence options of a run (check).
type evidenceFlags struct {
	// contract is the lockfile to compare the run's tools with.
	contract string
	// repo is where tool declarations are looked for, to locate findings.
	repo string
}

func (f *evidenceFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.contract, "contract", "", "compare the tools the server lists with this lockfile (mcpverdict contract lock): contract_mutated, tool_added, tool_removed")
	cmd.Flags().StringVar(&f.repo, "repo", "", "the repository to find tool declarations in, to locate contract findings (default: $GITHUB_WORKSPACE, else the git work tree)")
}

// runStart is when and how a run was invoked, for its provenance block.
type runStart struct {
	at      time.Time
	command []string
}

func startRun(cmd *cobra.Command) runStart {
	return runStart{at: time.Now(), command: invocation(cmd)}
}

// recordEvidence writes the run's ledger (its traces, the report, the
// contract drift when there is one, the probes' verdicts) and its head into
// outDir, and prints the head.
func (c *Command) recordEvidence(outDir string, traces []string, report *judge.Report, probes []evidence.ProbeEvidence, drift *evidence.Drift, start runStart) (string, error) {
	head, err := evidence.WriteRunLedger(filepath.Join(outDir, LedgerFile), filepath.Join(outDir, HeadFile), evidence.RunEvidence{
		Provenance: c.provenance(start),
		Traces:     traces, Report: report, Drift: drift, Probes: probes,
	})
	if err != nil {
		return "", exitcode.Wrap(exitcode.Usage, err)
	}
	fmt.Fprintf(c.Stderr, "mcpverdict: ledger head: %s (%s)\n", head, filepath.Join(outDir, HeadFile))
	return head, nil
}

// contractDrift compares the tools in traces with the lockfile f.contract,
// when one was given (nil otherwise): the findings go to stderr, to
// contract-findings.json in outDir (when set), and into the report as the
// CONTRACT clauses, so that every reporter shows them.
func (c *Command) contractDrift(f *evidenceFlags, outDir string, traces []string, report *judge.Report) (*evidence.Drift, error) {
	if f.contract == "" {
		return nil, nil
	}
	lock, err := readLock(f.contract)
	if err != nil {
		return nil, err
	}
	var served []canon.Value
	for _, t := range traces {
		events, _ := trace.ReadFile(t)
		served = append(served, evidence.ServedTools(events)...)
	}
	findings, err := evidence.Diff(lock, served)
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, fmt.Errorf("%s: %w", f.contract, err))
	}
	repo := f.repo
	if repo == "" {
		if r := c.repository(); r != nil {
			repo = r.Root
		}
	}
	evidence.AttachLocations(findings, repo)
	drift := &evidence.Drift{Lockfile: f.contract, Recipe: lock.Recipe, Findings: findings}
	evidence.AddContractRun(report, drift)
	drift.WriteText(c.Stderr)
	if outDir == "" {
		return drift, nil
	}
	b, _ := json.MarshalIndent(drift, "", "  ")
	if err := outfile.WriteFileAll(filepath.Join(outDir, ContractFindingsFile), append(b, '\n')); err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, err)
	}
	return drift, nil
}

func readLock(path string) (*evidence.Declared, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, exitcode.New(exitcode.Usage, "cannot read the contract lockfile: %v", err)
	}
	lock, err := evidence.ReadDeclared(path, b)
	if err != nil {
		return nil, badInput(err)
	}
	return lock, nil
}

// validateEvidenceFlags are validate's evidence options: a ledger is
// written only when asked for, since validate writes nothing else unasked.
type validateEvidenceFlags struct {
	evidenceFlags
	// ledger and headOut are where the ledger and its head go.
	ledger, headOut string
}

func (f *validateEvidenceFlags) register(cmd *cobra.Command) {
	f.evidenceFlags.register(cmd)
	cmd.Flags().StringVar(&f.ledger, "ledger", "", "also write the evidence ledger of this run (trace digests, declarations, clause report, contract findings) to FILE")
	cmd.Flags().StringVar(&f.headOut, "head-out", "", "with --ledger: write the ledger head to FILE (default: the ledger's path with .head for its extension)")
}

// drift compares the traces' tools with --contract, when given; the
// findings file goes beside the ledger, when there is one.
func (f *validateEvidenceFlags) drift(c *Command, traces []string, report *judge.Report) (*evidence.Drift, error) {
	dir := ""
	if f.ledger != "" {
		dir = filepath.Dir(f.ledger)
	}
	return c.contractDrift(&f.evidenceFlags, dir, traces, report)
}

func (f *validateEvidenceFlags) writeLedger(c *Command, traces []traceinput.Input, report *judge.Report, drift *evidence.Drift, start runStart) (*reporters.Ledger, error) {
	if f.ledger == "" {
		return nil, nil
	}
	headOut := f.headOut
	if headOut == "" {
		headOut = strings.TrimSuffix(f.ledger, filepath.Ext(f.ledger)) + ".head"
	}
	head, err := evidence.WriteRunLedger(f.ledger, headOut, evidence.RunEvidence{
		Provenance: c.provenance(start),
		Traces:     traceinput.Paths(traces), TraceNames: traceinput.Names(traces), Report: report, Drift: drift,
	})
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, err)
	}
	fmt.Fprintf(c.Stderr, "mcpverdict: ledger head: %s (%s)\n", head, headOut)
	return reporters.LedgerAt(head, headOut), nil
}

// provenance opens a run's ledger: the version and invocation, the CI
// run, and the build and toolchains.
func (c *Command) provenance(start runStart) ledger.Provenance {
	p := ledger.NewProvenance(Version(), start.command, start.at, c.getenv)
	p.Build, p.Toolchains = VersionString(), provenance.Toolchains()
	return p
}
