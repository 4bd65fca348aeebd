package reporters

import (
	"fmt"
	"io"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/mcpverdict/mcpverdict/internal/baseline"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// SARIF writes a SARIF 2.1.0 log for GitHub code scanning and other SARIF
// viewers: one rule per clause with findings (and one per revision for the
// wire schema), one result per finding, placed in the repository.
type SARIF struct{}

var _ Reporter = SARIF{}

func init() { register(SARIF{}) }

// Name is "sarif".
func (SARIF) Name() string { return "sarif" }

const (
	// InformationURI is where users learn about the tool (SARIF §3.19.17).
	InformationURI = "https://github.com/mcpverdict/mcpverdict"
	// sarifSchema is the final SARIF 2.1.0 schema; validators ask for it
	// by this address (SARIF1011).
	sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"
	// srcRoot is the uriBaseId of repository-relative locations (SARIF
	// §3.4.4): the consumer resolves it against its own checkout.
	srcRoot = "%SRCROOT%"
)

// maxSARIFResults: GitHub keeps at most 5,000 results of a run and refuses
// a file with more than 25,000, so the rest are counted in a notification
// instead. A variable so that tests can reach it cheaply.
var maxSARIFResults = 5000

func (SARIF) Write(w io.Writer, doc *Document, opts Options) error {
	log, err := sarif.New(sarif.Version210, false)
	if err != nil {
		return err
	}
	log.Schema = sarifSchema
	if doc.probeOnly() {
		log.AddRun(newProbeSARIFRun(doc, opts))
	} else {
		log.AddRun(newSARIFRun(doc, opts))
	}
	if err := log.PrettyWrite(w); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// sarifRun gathers one SARIF run: the rules it needs, its results and the
// fingerprints already handed out.
type sarifRun struct {
	run     *sarif.Run
	repo    *Repository
	rules   map[string]bool
	prints  map[string]int
	dropped int
	// delta, when a baseline was compared, gives each result its
	// baselineState (SARIF §3.27.24).
	delta *baseline.Delta
}

func newSARIFRun(doc *Document, opts Options) *sarif.Run {
	rep := visibleReport(doc.Clauses)
	b := newSARIFBuilder(rep.Tool, rep.Version, opts.Category, opts.Repo)
	if doc.Baseline.Compared() {
		b.delta = doc.Baseline
	}
	b.addFindings(doc.Findings(opts.Repo))
	inv := sarifInvocation(rep, b.dropped)
	if doc.Baseline != nil {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNote("note", deltaHeadline(visibleDelta(doc.Baseline))))
	}
	for _, p := range doc.Probes {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, probeNotes(p, "probe "+p.Definition.Name+": ")...)
	}
	inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifExtensionNotes(rep)...)
	b.run.AddInvocations(inv)
	return b.run
}

// newSARIFBuilder starts a run of the tool, under its analysis category,
// with locations relative to the repository's root.
func newSARIFBuilder(tool, version, category string, repo *Repository) *sarifRun {
	driver := sarif.NewVersionedDriver(tool, sarifVersion(version)).WithInformationURI(InformationURI)
	driver.Rules = []*sarif.ReportingDescriptor{}
	b := &sarifRun{run: sarif.NewRun(sarif.Tool{Driver: driver}), repo: repo, rules: map[string]bool{}, prints: map[string]int{}}
	b.run.WithAutomationDetails(sarif.NewRunAutomationDetails().WithID(sarifCategory(category)))
	if repo != nil && repo.Root != "" {
		b.run.WithOriginalUriBaseIds(map[string]*sarif.ArtifactLocation{srcRoot: {URI: ptr(fileURI(repo.Root) + "/")}})
	}
	return b
}

// sarifVersion makes the tool version start with a number, as SARIF
// consumers compare versions numerically (SARIF2005): "v1.2.3" becomes
// "1.2.3" and a work-tree build's "(devel)" becomes "0.0.0-devel".
func sarifVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if v != "" && v[0] >= '0' && v[0] <= '9' {
		return v
	}
	v = strings.Trim(v, "()")
	if v == "" {
		v = "unknown"
	}
	return "0.0.0-" + v
}

// sarifCategory returns the automationDetails id: GitHub reads everything
// up to its last "/" as the analysis category, so it ends in one.
func sarifCategory(category string) string {
	if category == "" {
		return "mcpverdict/"
	}
	if !strings.HasSuffix(category, "/") {
		category += "/"
	}
	return category
}

// addFindings adds a result per finding, defining each rule on first use;
// an incomplete trace is no result but a notification (sarifInvocation).
func (b *sarifRun) addFindings(findings []Finding) {
	for i := range findings {
		f := &findings[i]
		switch f.Source {
		case FromClause, FromContract:
			rule := clauseRule(f.Clause.Clause)
			b.add(rule, b.withBaselineState(b.findingResult(rule, f), f))
		case FromWire:
			rule := wireRule(f.Run.Revision)
			b.add(rule, b.withBaselineState(b.wireResult(rule, f), f))
		case FromProbe:
			b.add(probeRule(f.Verdict.Test), b.withBaselineState(b.probeResult(f), f))
		}
	}
}

// add records a result under its rule, defining the rule on first use.
func (b *sarifRun) add(rule *sarif.ReportingDescriptor, res *sarif.Result) {
	if len(b.run.Results) >= maxSARIFResults {
		b.dropped++
		return
	}
	if !b.rules[rule.ID] {
		b.rules[rule.ID] = true
		b.run.Tool.Driver.AddRule(rule)
	}
	b.run.AddResult(res)
}

func sarifInvocation(rep *judge.Report, dropped int) *sarif.Invocation {
	ok := true
	var notes []*sarif.Notification
	for _, r := range rep.Runs {
		if r.Incomplete != "" {
			ok = false
			notes = append(notes, sarifNote("error", fmt.Sprintf("%s could not be judged whole: %s", r.Trace, r.Incomplete)))
		}
		if !r.Wire.Checked && r.Wire.NotApplicable == "" {
			notes = append(notes, sarifNote("warning", fmt.Sprintf("%s: wire schema not checked: %s", r.Trace, r.Wire.NotChecked)))
		}
	}
	if dropped > 0 {
		notes = append(notes, sarifNote("warning", fmt.Sprintf("%d more results were left out: a run keeps at most %d; report.json has them all", dropped, maxSARIFResults)))
	}
	inv := &sarif.Invocation{ExecutionSuccessful: &ok}
	if len(notes) > 0 {
		inv.ToolExecutionNotifications = notes
	}
	return inv
}

func sarifNote(level, text string) *sarif.Notification {
	return &sarif.Notification{Level: level, Message: sarif.NewTextMessage(sentence(text))}
}

func ptr[T any](v T) *T { return &v }

// sentence ends a message with a period, as SARIF asks of plain-text
// messages (SARIF2001).
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}
