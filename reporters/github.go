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

func (GitHub) Write(w io.Writer, rep *judge.Report, opts Options) error {
	rep = visibleReport(rep)
	bw := bufio.NewWriter(w)
	shown := map[string]int{}
	left := map[string]int{}
	for _, a := range append(annotations(rep, opts.Repo), probeAnnotations(opts.Probes, opts.Repo)...) {
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

func annotations(rep *judge.Report, repo *Repository) []annotation {
	var out []annotation
	for _, r := range rep.Runs {
		if r.Incomplete != "" {
			out = append(out, annotation{kind: "error", place: repo.PlaceTrace(r.Trace, r.IncompleteLine),
				title: "mcpverdict: trace not read whole", message: "the trace could not be judged whole: " + r.Incomplete})
		}
		for i := range r.Clauses {
			if c := &r.Clauses[i]; c.Outcome == judge.Fail || c.Outcome == judge.Warn {
				out = append(out, clauseAnnotations(c, repo)...)
			}
		}
		for _, f := range r.Wire.Invalid {
			msg := fmt.Sprintf("[%s] %s at %q: %s (%s:%d seq %d)", f.Party, f.Definition, f.Pointer, f.Error, f.Trace, f.Line, f.Seq)
			out = append(out, annotation{kind: "error", place: repo.PlaceTrace(f.Trace, f.Line), title: "wire schema (" + r.Revision + ")", message: msg})
		}
	}
	return out
}

// clauseAnnotations gives one annotation per place a clause's findings
// land on: ten findings on one line are one annotation that lists them,
// not ten that repeat the title.
func clauseAnnotations(c *judge.ClauseResult, repo *Repository) []annotation {
	kind := "warning"
	if c.Outcome == judge.Fail {
		kind = "error"
	}
	title := fmt.Sprintf("%s (%s): %s", c.Clause.ID, c.Clause.Level, clip(c.Clause.Quote, 120))
	var out []annotation
	lines := map[Place][]string{}
	for _, f := range c.Findings {
		p := repo.PlaceFinding(&f)
		if lines[p] == nil {
			out = append(out, annotation{kind: kind, place: p, title: title})
		}
		lines[p] = append(lines[p], fmt.Sprintf("[%s] %s (%s:%d seq %d)", f.Party, f.Message, f.Trace, f.Line, f.Seq))
	}
	for i := range out {
		found := lines[out[i].place]
		if len(found) > maxFindingsPerAnnotation {
			found = append(found[:maxFindingsPerAnnotation], fmt.Sprintf("… and %d more", len(found)-maxFindingsPerAnnotation))
		}
		out[i].message = fmt.Sprintf("%s\nspec: %q\nsee: %s", strings.Join(found, "\n"), c.Clause.Quote, c.Clause.URL)
	}
	return out
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
