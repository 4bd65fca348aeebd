package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/evidence"
	"github.com/mcpverdict/mcpverdict/internal/evidence/canon"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// The files a run's evidence lands in, inside its output directory.
const (
	LedgerFile           = "ledger.jsonl"
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
	cmd.Flags().StringVar(&f.repo, "repo", ".", "the repository to find tool declarations in, to locate contract findings")
}

// runStart is when and how a run was invoked, for its provenance block.
type runStart struct {
	at      time.Time
	command []string
}

func startRun(cmd *cobra.Command) runStart {
	return runStart{at: time.Now(), command: invocation(cmd)}
}

// recordEvidence compares the run's tools with --contract, when given
// (findings on stderr and in contract-findings.json), then writes the run's
// ledger and its head into outDir and prints the head. It returns the drift,
// nil without --contract.
func (c *Command) recordEvidence(f *evidenceFlags, outDir string, traces []string, report *judge.Report, start runStart) (*evidence.Drift, error) {
	drift, err := c.contractDrift(f, outDir, traces)
	if err != nil {
		return nil, err
	}
	head, err := evidence.WriteRunLedger(filepath.Join(outDir, LedgerFile), filepath.Join(outDir, HeadFile), evidence.RunEvidence{
		Provenance: ledger.NewProvenance(Version(), start.command, start.at, c.env),
		Traces:     traces, Report: report, Drift: drift,
	})
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, err)
	}
	fmt.Fprintf(c.Stderr, "mcpverdict: ledger head: %s (%s)\n", head, filepath.Join(outDir, HeadFile))
	return drift, nil
}

// contractDrift compares the tools in traces with the lockfile f.contract.
func (c *Command) contractDrift(f *evidenceFlags, outDir string, traces []string) (*evidence.Drift, error) {
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
	evidence.AttachLocations(findings, f.repo)
	drift := &evidence.Drift{Lockfile: f.contract, Recipe: lock.Recipe, Findings: findings}
	printDrift(c.Stderr, drift)
	b, _ := json.MarshalIndent(drift, "", "  ")
	if err := writeFileAtomic(filepath.Join(outDir, ContractFindingsFile), append(b, '\n')); err != nil {
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

func printDrift(w io.Writer, d *evidence.Drift) {
	if len(d.Findings) == 0 {
		fmt.Fprintf(w, "mcpverdict: contract: every tool matches %s (recipe %s)\n", d.Lockfile, d.Recipe)
		return
	}
	for _, f := range d.Findings {
		where := ""
		if f.Location != nil {
			where = fmt.Sprintf(" (%s:%d)", f.Location.Path, f.Location.Line)
		}
		fmt.Fprintf(w, "mcpverdict: contract: %s: %s%s [%s]\n", f.Tool, f.Detail, where, f.Check)
		for _, ch := range f.Changes {
			fmt.Fprintf(w, "  %s: %s -> %s\n", ch.Field, orAbsent(ch.Old), orAbsent(ch.New))
		}
	}
}

func orAbsent(b []byte) string {
	if b == nil {
		return "(absent)"
	}
	return string(b)
}

// driftStatus fails the run when its tools drifted from the lockfile.
func driftStatus(d *evidence.Drift) error {
	if d != nil && len(d.Findings) > 0 {
		return exitWith(exitcode.Fail)
	}
	return nil
}
