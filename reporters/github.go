package reporters

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// GitHub writes workflow commands that GitHub Actions shows as annotations
// on the pull request: an error per MUST finding (and per message the wire
// schema refuses), a warning per SHOULD finding, each on the line it is
// placed at. GitHub shows at most MaxAnnotations of each kind per step, so
// the rest are counted in one notice that points at the summary.
type GitHub struct{}

var _ Reporter = GitHub{}

func init() { register(GitHub{}) }

// Name is "github".
func (GitHub) Name() string { return "github" }

// MaxAnnotations is how many errors, and how many warnings, GitHub Actions
// displays for one step.
const MaxAnnotations = 10

// annotation is one workflow command before it is written.
type annotation struct {
	kind    string // "error" or "warning"
	place   Place
	title   string
	message string
}

func (GitHub) Write(w io.Writer, doc *Document, opts Options) error {
	bw := bufio.NewWriter(w)
	shown := map[string]int{}
	left := map[string]int{}
	for _, a := range annotations(doc.Findings(opts.Repo)) {
		if shown[a.kind] == MaxAnnotations {
			left[a.kind]++
			continue
		}
		shown[a.kind]++
		fmt.Fprintln(bw, a.command())
	}
	if left["error"]+left["warning"] > 0 {
		msg := fmt.Sprintf("%d more error(s) and %d more warning(s) were not annotated (GitHub shows %d of each per step): the job summary and report.json list them all", left["error"], left["warning"], MaxAnnotations)
		cmd := githubactions.Command{Name: "notice", Message: msg, Properties: githubactions.CommandProperties{"title": "mcpverdict: more findings"}}
		fmt.Fprintln(bw, cmd.String())
	}
	return bw.Flush()
}

// annotations turns findings into workflow commands: a clause's findings
// on one line are one annotation that lists them, not several that repeat
// the title; a note (an over-declared hint) is no annotation.
func annotations(findings []Finding) []annotation {
	var out []annotation
	type group struct {
		clause *judge.ClauseResult
		place  Place
	}
	grouped := map[group]int{}
	lines := map[group][]string{}
	for _, f := range findings {
		switch {
		case f.Source == FromClause || f.Source == FromContract:
			g := group{f.Clause, f.Place}
			if _, ok := grouped[g]; !ok {
				grouped[g] = len(out)
				out = append(out, annotation{kind: f.Level, place: f.Place, title: clauseTitle(f.Clause)})
			}
			lines[g] = append(lines[g], fmt.Sprintf("[%s] %s (%s:%d seq %d)", f.Party, f.Judged.Message, f.Judged.Trace, f.Judged.Line, f.Judged.Seq))
		case f.Level == "note":
		default:
			out = append(out, singleAnnotation(f))
		}
	}
	for g, i := range grouped {
		found := lines[g]
		if len(found) > maxFindingsPerAnnotation {
			found = append(found[:maxFindingsPerAnnotation], fmt.Sprintf("… and %d more", len(found)-maxFindingsPerAnnotation))
		}
		out[i].message = fmt.Sprintf("%s\nspec: %q\nsee: %s", strings.Join(found, "\n"), g.clause.Clause.Quote, g.clause.Clause.URL)
	}
	return out
}

func clauseTitle(c *judge.ClauseResult) string {
	return fmt.Sprintf("%s (%s): %s", c.Clause.ID, c.Clause.Level, clip(c.Clause.Quote, 120))
}

// singleAnnotation is the annotation of a finding that stands alone: an
// incomplete trace, a refused message, a probe verdict.
func singleAnnotation(f Finding) annotation {
	a := annotation{kind: f.Level, place: f.Place}
	switch f.Source {
	case FromTrace:
		a.title, a.message = "mcpverdict: trace not read whole", "the trace could not be judged whole: "+f.Run.Incomplete
	case FromWire:
		w := f.Wire
		a.title = "wire schema (" + f.Run.Revision + ")"
		a.message = fmt.Sprintf("[%s] %s at %q: %s (%s:%d seq %d)", w.Party, w.Definition, w.Pointer, w.Error, w.Trace, w.Line, w.Seq)
	case FromProbe:
		tr := f.Verdict
		a.title = fmt.Sprintf("%s: %s %s %s", f.Rule, f.Tool, tr.Hint, declaredWord(tr.Declared))
		a.message = probeLine(f.Tool, tr) + "\nprobe definition: " + f.Probe.Definition.Path
	}
	return a
}

// maxFindingsPerAnnotation keeps one annotation readable.
const maxFindingsPerAnnotation = 5

// command renders the workflow command; githubactions escapes the message
// (%, CR, LF) and the properties (also ":" and ",") as the runner expects.
func (a annotation) command() string {
	props := githubactions.CommandProperties{"title": printable(a.title)}
	if a.place.InRepo {
		props["file"] = a.place.Path
		props["line"] = strconv.Itoa(a.place.Line)
	}
	cmd := githubactions.Command{Name: a.kind, Message: printable(a.message), Properties: props}
	return cmd.String()
}
