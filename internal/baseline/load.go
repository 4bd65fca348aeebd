package baseline

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// Report is a baseline as report.json holds it: the clause report and,
// of each probe run with it, its verdicts.
type Report struct {
	*judge.Report
	Probes []struct {
		Verdicts []struct {
			Definition string `json:"definition"`
			Tool       string `json:"tool"`
			Test       string `json:"test"`
			Verdict    string `json:"verdict"`
		} `json:"verdicts"`
	} `json:"probes"`
}

// maxReport bounds what is read of a baseline: a report.json of a large
// check is a few megabytes, and a baseline is read whole.
const maxReport = 512 << 20

// Load reads a baseline report.json. Its error is one line that names the
// file and what to give instead.
func Load(path string) (*Report, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read baseline %s: %v: give a report.json that check or validate wrote", path, pathError(err))
	}
	if !info.Mode().IsRegular() || info.Size() > maxReport {
		return nil, fmt.Errorf("baseline %s is not a report file: give a report.json that check or validate wrote", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read baseline %s: %v: give a report.json that check or validate wrote", path, pathError(err))
	}
	rep := &Report{Report: &judge.Report{}}
	if err := json.Unmarshal(data, rep); err != nil {
		return nil, fmt.Errorf("baseline %s is not JSON mcpverdict reads (%v): give a report.json that check or validate wrote", path, err)
	}
	if rep.Tool != "mcpverdict" || rep.Version == "" || rep.Verdict == "" {
		return nil, fmt.Errorf("baseline %s is not an mcpverdict report (no tool, version and verdict): give a report.json that check or validate wrote", path)
	}
	return rep, nil
}

func pathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// servers are the servers the baseline's runs name (check records them).
func (r *Report) servers() []string {
	var names []string
	for _, run := range r.Runs {
		if run.Server != nil {
			names = append(names, run.Server.Name)
		}
	}
	return distinctNames(names)
}

func (r *Report) probeVerdicts() []probeVerdict {
	var out []probeVerdict
	for _, p := range r.Probes {
		for _, v := range p.Verdicts {
			out = append(out, probeVerdict{probeKey{v.Definition, v.Tool, v.Test}, v.Verdict})
		}
	}
	return out
}
