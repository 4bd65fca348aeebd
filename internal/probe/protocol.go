package probe

import (
	"os"
	"path/filepath"
	"sort"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// ProtocolReport is what the clause checks made of the probe's own
// sessions: every trace judged against the revision it negotiated, for
// findings against the server.
type ProtocolReport struct {
	Traces  int    `json:"traces"`
	Verdict string `json:"verdict"`
	// Failed and Warned list each clause that failed or warned, with how
	// many traces it did so in; Incomplete counts traces that could not be
	// read to the end.
	Failed     []ClauseCount `json:"failed,omitempty"`
	Warned     []ClauseCount `json:"warned,omitempty"`
	Incomplete int           `json:"incomplete,omitempty"`
}

// ClauseCount is one clause and the traces it failed or warned in.
type ClauseCount struct {
	Clause string `json:"clause"`
	Traces int    `json:"traces"`
}

// judgeTraces judges each trace, one at a time so that memory stays flat
// however many sessions ran.
func judgeTraces(paths []string) ProtocolReport {
	paths = append([]string(nil), paths...)
	sort.Strings(paths)
	failed, warned := map[string]int{}, map[string]int{}
	out := ProtocolReport{Verdict: string(judge.VerdictPass)}
	for _, p := range paths {
		rep := judgeOne(p)
		if rep == nil {
			continue
		}
		out.Traces++
		for _, run := range rep.Runs {
			if run.Incomplete != "" {
				out.Incomplete++
			}
			countOutcomes(run, failed, warned)
		}
		out.Verdict = worse(out.Verdict, string(rep.Verdict))
	}
	out.Failed, out.Warned = clauseCounts(failed), clauseCounts(warned)
	return out
}

func judgeOne(path string) *judge.Report {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	r := trace.NewReader(f, filepath.Base(path))
	return judge.Judge([]judge.Input{{Name: filepath.Base(path), Next: r.Next}}, judge.Options{Party: spec.Server})
}

func countOutcomes(run judge.Run, failed, warned map[string]int) {
	for _, c := range run.Clauses {
		switch c.Outcome {
		case judge.Fail:
			failed[c.Clause.ID]++
		case judge.Warn:
			warned[c.Clause.ID]++
		}
	}
}

// worse keeps the worse of two verdicts.
func worse(a, b string) string {
	rank := map[string]int{string(judge.VerdictPass): 0, string(judge.VerdictPassWithWarnings): 1, string(judge.VerdictFail): 2, string(judge.VerdictIncomplete): 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

func clauseCounts(m map[string]int) []ClauseCount {
	out := make([]ClauseCount, 0, len(m))
	for _, id := range definition.SortedKeys(m) {
		out = append(out, ClauseCount{Clause: id, Traces: m[id]})
	}
	return out
}
