package calibrate

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Ledger is conformance/divergences.json: every disagreement between the
// suite and mcpverdict that is not fixed, with the reason it stands.
type Ledger struct {
	Divergences []Divergence `json:"divergences"`
}

// Divergence explains one disagreement, in the scenarios it names: the same
// clause failed (WeFail), or the same kind of suite failure left unflagged
// (SuiteFail), for the same reason.
type Divergence struct {
	Kind      string   `json:"kind"`
	Server    string   `json:"server"`
	Run       string   `json:"run"`
	Clause    string   `json:"clause,omitempty"`
	Scenarios []string `json:"scenarios"`
	Reason    string   `json:"reason"`
	// Intermittent marks a disagreement that depends on timing (a race in
	// the suite's client): its absence from one run is not staleness.
	Intermittent bool `json:"intermittent,omitempty"`
}

func readLedger(path string) (*Ledger, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var l Ledger
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, d := range l.Divergences {
		if strings.TrimSpace(d.Reason) == "" || len(d.Scenarios) == 0 {
			return nil, fmt.Errorf("%s: divergence %d has no reason or no scenario", path, i)
		}
	}
	return &l, nil
}

func (d Divergence) explains(x Disagreement) bool {
	return d.Kind == x.Kind && d.Server == x.Server && d.Run == x.Run && d.Clause == x.Clause && slices.Contains(d.Scenarios, x.Scenario)
}

// Audit is the ledger held to the disagreements found: those it does not
// explain, and its entries (per scenario) that no longer disagree.
type Audit struct {
	Unexplained []Disagreement
	Stale       []string
	Explained   int
}

// audit compares the disagreements of the runs that ran with the ledger's
// entries for them. An entry is not judged stale for a run that did not run
// or a scenario that was inconclusive (keys server/run and
// server/run/scenario in compared).
func (l *Ledger) audit(found []Disagreement, compared map[string]bool) Audit {
	var a Audit
	used := map[string]bool{}
	for _, x := range found {
		i := slices.IndexFunc(l.Divergences, func(d Divergence) bool { return d.explains(x) })
		if i < 0 {
			a.Unexplained = append(a.Unexplained, x)
			continue
		}
		a.Explained++
		used[fmt.Sprint(i, "/", x.Scenario)] = true
	}
	for i, d := range l.Divergences {
		if !compared[d.Server+"/"+d.Run] || d.Intermittent {
			continue
		}
		for _, s := range d.Scenarios {
			if compared[d.Server+"/"+d.Run+"/"+s] && !used[fmt.Sprint(i, "/", s)] {
				a.Stale = append(a.Stale, fmt.Sprintf("%s %s %s %s %s: no longer disagrees", d.Kind, d.Server, d.Run, d.Clause, s))
			}
		}
	}
	return a
}

// draft is a ledger entry for an unexplained disagreement, to paste into
// the ledger once its reason is written.
func draft(x Disagreement) string {
	b, _ := json.MarshalIndent(Divergence{
		Kind: x.Kind, Server: x.Server, Run: x.Run, Clause: x.Clause, Scenarios: []string{x.Scenario},
		Reason: "WHY (" + x.Detail + ")",
	}, "    ", "  ")
	return string(b)
}
