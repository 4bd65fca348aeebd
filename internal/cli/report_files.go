package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/evidence"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
	"github.com/mcpverdict/mcpverdict/internal/provenance"
	"github.com/mcpverdict/mcpverdict/internal/toolsource"
	"github.com/mcpverdict/mcpverdict/reporters"
)

// registerFiles adds one --FORMAT FILE flag per report format, so that one
// run writes every report it is asked for, each to its own path.
func (f *judgeFlags) registerFiles(cmd *cobra.Command) {
	f.files = map[string]*string{}
	for _, name := range reporters.Names() {
		f.files[name] = new(string)
		cmd.Flags().StringVar(f.files[name], name, "", "also write the "+name+" report to FILE")
	}
	cmd.Flags().StringVar(&f.category, "category", "", `the SARIF analysis category, one per server (default "mcpverdict/" and the server's name)`)
}

// checkFiles refuses two reports written to one file.
func (f *judgeFlags) checkFiles() error {
	owner := map[string]string{}
	if f.output != "" {
		owner[filepath.Clean(f.output)] = "-o"
	}
	for _, name := range reporters.Names() {
		path := *f.files[name]
		if path == "" {
			continue
		}
		if other, dup := owner[filepath.Clean(path)]; dup {
			return exitcode.New(exitcode.Usage, "--%s and %s both write %s: give each report its own file", name, other, path)
		}
		owner[filepath.Clean(path)] = "--" + name
	}
	return nil
}

// writeFormatFiles writes each report asked for with --FORMAT FILE but
// html, which shows the ledger head and so is written after the ledger
// (writeHTMLFiles).
func (c *Command) writeFormatFiles(report *judge.Report, f *judgeFlags, opts reporters.Options) error {
	for _, name := range reporters.Names() {
		path := *f.files[name]
		if path == "" || name == htmlFormat {
			continue
		}
		rep, _ := reporters.Get(name)
		var buf bytes.Buffer
		if err := rep.Write(&buf, f.document(report), opts); err != nil {
			return exitcode.Wrap(exitcode.Usage, err)
		}
		if err := outfile.WriteFileAll(path, buf.Bytes()); err != nil {
			return exitcode.Wrap(exitcode.Usage, err)
		}
	}
	return nil
}

const htmlFormat = "html"

// HTMLFile is the page check writes into its output directory.
const HTMLFile = "report.html"

// writeHTMLFiles writes the html report to each path given (--html FILE,
// and check's output directory), showing the ledger the run wrote and the
// contract drift field by field.
func (c *Command) writeHTMLFiles(report *judge.Report, f *judgeFlags, led *reporters.Ledger, drift *evidence.Drift, paths ...string) error {
	if p := *f.files[htmlFormat]; p != "" {
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		return nil
	}
	doc := f.document(report)
	doc.Ledger, doc.Drift = led, toolDrift(drift)
	var buf bytes.Buffer
	if err := (reporters.HTML{}).Write(&buf, doc, c.reportOptions(report, f)); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	for _, p := range paths {
		if err := outfile.WriteFileAll(p, buf.Bytes()); err != nil {
			return exitcode.Wrap(exitcode.Usage, err)
		}
	}
	return nil
}

// toolDrift is the drift as the reporters show it.
func toolDrift(d *evidence.Drift) []reporters.ToolDrift {
	if d == nil {
		return nil
	}
	out := make([]reporters.ToolDrift, len(d.Findings))
	for i, f := range d.Findings {
		out[i] = reporters.ToolDrift{Tool: f.Tool, Check: string(f.Check), Detail: f.Detail}
		for _, ch := range f.Changes {
			out[i].Changes = append(out[i].Changes, reporters.FieldChange{Field: ch.Field, Old: ch.Old, New: ch.New})
		}
	}
	return out
}

// reportOptions gives the formats that point into files the repository
// they are shown against and the SARIF category.
func (c *Command) reportOptions(report *judge.Report, f *judgeFlags) reporters.Options {
	category := f.category
	if category == "" {
		category = defaultCategory(report)
	}
	repo := c.repository()
	if repo != nil && !f.exampleServer {
		if entry, ok := toolsource.Entry(repo.Root, repo.WorkDir, f.serverCommand, repo.Tracked); ok {
			repo.Entry, repo.EntryLine = entry.Path, entry.Line
		}
	}
	return reporters.Options{All: f.all, Repo: repo, Category: category}
}

// repository finds the checkout: $GITHUB_WORKSPACE on a runner, else the
// git work tree around the working directory, else the directory itself.
func (c *Command) repository() *reporters.Repository {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	root := c.getenv("GITHUB_WORKSPACE")
	if root == "" {
		root = provenance.GitTopLevel(wd)
	}
	if root == "" {
		root = wd
	}
	idx := toolsource.New(root)
	repo := &reporters.Repository{Root: root, WorkDir: wd, Workflow: provenance.WorkflowPath(c.getenv("GITHUB_WORKFLOW_REF")), FindTool: idx.Find}
	if repo.Workflow != "" {
		repo.WorkflowLine = toolsource.WorkflowStep(root, repo.Workflow, c.getenv("GITHUB_ACTION"), c.getenv("GITHUB_ACTION_REPOSITORY"))
	}
	if tracked, ok := toolsource.Tracked(root); ok {
		repo.Tracked = func(rel string) bool { return tracked[rel] }
	}
	return repo
}

func (c *Command) getenv(key string) string {
	if c.Getenv != nil {
		return c.Getenv(key)
	}
	return os.Getenv(key)
}

// defaultCategory names the analysis after the server the first trace
// recorded (its initialize result's serverInfo.name), else after the
// trace file.
func defaultCategory(report *judge.Report) string {
	if len(report.Runs) == 0 {
		return "mcpverdict/"
	}
	name := provenance.ServerName(report.Runs[0].Trace)
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(report.Runs[0].Trace), filepath.Ext(report.Runs[0].Trace))
	}
	return reporters.Category(name)
}
