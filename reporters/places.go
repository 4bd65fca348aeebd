package reporters

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// Repository describes the checkout a report is shown against, so that the
// formats that point into files put each finding on a line a reviewer can
// open.
type Repository struct {
	// Root is the absolute path of the checkout.
	Root string
	// WorkDir is the directory relative trace paths start from; empty
	// means Root.
	WorkDir string
	// Entry is the server's own entry file (repository-relative, with a
	// line): where a finding goes when its trace is not in the repository
	// and it names no tool declared there.
	Entry     string
	EntryLine int
	// Workflow is the repository-relative path of the workflow file that
	// ran the check, and WorkflowLine the line of the step that ran it:
	// where a finding goes when nothing closer is known.
	Workflow     string
	WorkflowLine int
	// FindTool returns the repository-relative path and line that declare
	// a tool (its name as a string literal in a tracked source file); nil
	// never finds one.
	FindTool func(name string) (path string, line int, ok bool)
	// Tracked, when set, reports whether a repository-relative path is in
	// version control: a trace the checkout does not hold (one a run just
	// wrote into its output directory) is not a place code scanning can
	// show, so its findings go to the workflow file instead.
	Tracked func(rel string) bool
}

// PlaceKind says why a finding was put where it was.
type PlaceKind string

// The kinds of place, from the closest to the cause to the last resort.
const (
	// AtDeclaration: the source line that declares the tool the finding is about.
	AtDeclaration PlaceKind = "declaration"
	// AtTrace: the trace line of the offending event.
	AtTrace PlaceKind = "trace"
	// AtEntry: the server's entry file.
	AtEntry PlaceKind = "entry"
	// AtWorkflow: the workflow file that ran the check.
	AtWorkflow PlaceKind = "workflow"
)

// Place is a line in a file. Path is slash-separated and relative to the
// repository root when InRepo; otherwise it is the path as the report has it.
type Place struct {
	Path   string
	Line   int
	InRepo bool
	Kind   PlaceKind
}

// PlaceFinding decides where a finding is shown: at the line declaring the
// tool it is about, else at its trace line when the trace lies inside the
// repository, else at the workflow file.
func (r *Repository) PlaceFinding(f *judge.Finding) Place {
	if tool := ToolOf(f.Message); tool != "" {
		return r.PlaceTool(tool, f.Trace, f.Line)
	}
	return r.PlaceTrace(f.Trace, f.Line)
}

// PlaceTool decides where something about a tool is shown: at the line
// declaring the tool, else at file:line (a trace, a probe definition) when
// that file lies inside the repository, else at the workflow file.
func (r *Repository) PlaceTool(tool, file string, line int) Place {
	if r != nil && r.FindTool != nil {
		if path, l, ok := r.FindTool(tool); ok {
			return Place{Path: path, Line: l, InRepo: true, Kind: AtDeclaration}
		}
	}
	return r.PlaceTrace(file, line)
}

// PlaceTrace places an event of a trace: at its line when the trace lies in
// the repository, else at the server's entry file, else at the step of the
// workflow that ran the check, else at the trace under the repository
// root though git does not track it, else (no repository known, or a
// trace outside it with nothing else to point at) at the trace as given.
func (r *Repository) PlaceTrace(trace string, line int) Place {
	if line < 1 {
		line = 1
	}
	if r == nil || r.Root == "" {
		return Place{Path: filepath.ToSlash(trace), Line: line, Kind: AtTrace}
	}
	if rel, ok := r.relative(trace); ok {
		return Place{Path: rel, Line: line, InRepo: true, Kind: AtTrace}
	}
	if r.Entry != "" {
		return Place{Path: r.Entry, Line: max(r.EntryLine, 1), InRepo: true, Kind: AtEntry}
	}
	if r.Workflow != "" {
		return Place{Path: r.Workflow, Line: max(r.WorkflowLine, 1), InRepo: true, Kind: AtWorkflow}
	}
	if tp, ok := r.TraceLine(trace, line); ok {
		return tp
	}
	return Place{Path: filepath.ToSlash(trace), Line: line, Kind: AtTrace}
}

// TraceLine is a trace line as a repository-relative place, whether or not
// git tracks the trace: a related location a reviewer can follow in the
// run's artifact. false when the trace lies outside the repository.
func (r *Repository) TraceLine(trace string, line int) (Place, bool) {
	if r == nil || r.Root == "" {
		return Place{}, false
	}
	rel, ok := r.under(trace)
	if !ok {
		return Place{}, false
	}
	return Place{Path: rel, Line: max(line, 1), InRepo: true, Kind: AtTrace}, true
}

// relative returns path relative to the root when it lies inside it and
// git tracks it (or nothing is known of what git tracks).
func (r *Repository) relative(path string) (string, bool) {
	rel, ok := r.under(path)
	if !ok || (r.Tracked != nil && !r.Tracked(rel)) {
		return "", false
	}
	return rel, true
}

// under returns path relative to the root when it lies inside it.
func (r *Repository) under(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		dir := r.WorkDir
		if dir == "" {
			dir = r.Root
		}
		path = filepath.Join(dir, path)
	}
	rel, err := filepath.Rel(r.Root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// toolName matches how findings name a tool: `tool "NAME"` (Go's %q).
var toolName = regexp.MustCompile(`\btool (?:name )?("(?:[^"\\]|\\.)*")`)

// ToolOf returns the tool a finding's message is about, or "".
func ToolOf(message string) string {
	m := toolName.FindStringSubmatch(message)
	if m == nil {
		return ""
	}
	name, err := strconv.Unquote(m[1])
	if err != nil {
		return ""
	}
	return name
}
