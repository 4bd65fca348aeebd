package reporters

import (
	"encoding/json"
	"io"

	"github.com/mcpverdict/mcpverdict/internal/baseline"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// JSON writes the whole report as data, every finding included.
type JSON struct{}

var _ Reporter = JSON{}

func init() { register(JSON{}) }

// Name is "json".
func (JSON) Name() string { return "json" }

func (JSON) Write(w io.Writer, doc *Document, opts Options) error {
	if doc.Clauses == nil {
		return errNoClauses("json")
	}
	rep := doc.Clauses
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if len(doc.Probes) == 0 && doc.Baseline == nil && len(doc.Jobs) == 0 {
		return enc.Encode(rep)
	}
	// The probe verdicts and the baseline's delta ride beside the clause
	// report's own members, so that a reader of the plain report reads this
	// one unchanged.
	out := struct {
		*judge.Report
		Probes   []probeJSON     `json:"probes,omitempty"`
		Baseline *baseline.Delta `json:"baseline,omitempty"`
		Jobs     []JobRow        `json:"jobs,omitempty"`
	}{Report: rep, Baseline: doc.Baseline, Jobs: doc.Jobs}
	if len(doc.Probes) > 0 {
		out.Probes = probesJSON(doc.Probes)
	}
	return enc.Encode(out)
}
