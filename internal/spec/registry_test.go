package spec

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// specDir is the spec checkout the truth tests read: MCPVERDICT_SPEC_DIR, or
// ../shared/mcp-spec beside the repository.
func specDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("MCPVERDICT_SPEC_DIR"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	d := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "mcp-spec")
	if _, err := os.Stat(d); err != nil {
		t.Fatalf("no spec sources at %s: set MCPVERDICT_SPEC_DIR to a checkout of the specification repository", d)
	}
	return d
}

func TestRegistriesLoad(t *testing.T) {
	for _, rev := range registered() {
		r, err := loadRegistered(rev)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Clauses) == 0 {
			t.Errorf("%s: no clauses", rev)
		}
	}
}

// Every quote is found verbatim (after Normalize) in the page its URL names,
// inside the section its anchor names.
func TestQuotesAreVerbatimUnderTheirAnchor(t *testing.T) {
	dir := specDir(t)
	for _, rev := range registered() {
		pages := map[string]*Page{}
		for _, c := range mustLoadRegistered(t, rev).Clauses {
			path, anchor := c.Page()
			page, err := cachedPage(pages, dir, rev, path)
			if err != nil {
				t.Errorf("%s %s: url %s names no spec page: %v", rev, c.ID, c.URL, err)
				continue
			}
			anchors := page.Find(c.Quote)
			switch {
			case len(anchors) == 0:
				t.Errorf("%s %s: quote not found in %s: %q", rev, c.ID, path, c.Quote)
			case !contains(anchors, anchor):
				t.Errorf("%s %s: quote is under #%s, but the url says #%s", rev, c.ID, strings.Join(anchors, ", #"), anchor)
			}
		}
	}
}

// Every normative sentence of every in-scope page has a clause or an
// out-of-scope entry; every out-of-scope entry is real and has a reason.
func TestEveryNormativeSentenceIsRegistered(t *testing.T) {
	dir := specDir(t)
	for _, rev := range registered() {
		reg := mustLoadRegistered(t, rev)
		checkOutOfScopeEntries(t, dir, reg)
		for _, path := range inScopePages(t, dir, reg) {
			page, err := ReadPage(dir, rev, path)
			if err != nil {
				t.Fatal(err)
			}
			quotes := quotesFor(reg, path)
			for _, req := range page.Requirements() {
				if !page.Covered(req, quotes) {
					t.Errorf("%s %s#%s: %s not registered: %q", rev, path, req.Anchor, req.Keyword, req.Sentence)
				}
			}
		}
	}
}

func inScopePages(t *testing.T, dir string, reg *Registry) []string {
	base := filepath.Join(dir, "docs", "specification", reg.Revision)
	var pages []string
	err := filepath.Walk(base, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".mdx") {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		rel = filepath.ToSlash(rel)
		if !reg.pageOutOfScope(rel) {
			pages = append(pages, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(pages)
	return pages
}

func (r *Registry) pageOutOfScope(rel string) bool {
	for _, p := range append(r.OutOfScope.Pages, r.OutOfScope.Pending...) {
		if p.Path == rel {
			return true
		}
	}
	return false
}

func TestPendingPagesAreListed(t *testing.T) {
	for _, rev := range registered() {
		for _, p := range mustLoadRegistered(t, rev).OutOfScope.Pending {
			t.Logf("%s: %s is not registered yet: %s", rev, p.Path, p.Reason)
		}
	}
}

// quotesFor gathers the quotes that may cover a page, normalized once:
// clauses whose URL points at it and out-of-scope sentences listed for it.
func quotesFor(reg *Registry, file string) []string {
	var out []string
	for _, c := range reg.Clauses {
		if p, _ := c.Page(); pageFile(p) == file || pageFile(p+"/index") == file {
			out = append(out, Normalize(c.Quote))
		}
	}
	for _, s := range reg.OutOfScope.Sentences {
		if s.Page == file {
			out = append(out, Normalize(s.Quote))
		}
	}
	return out
}

func pageFile(urlPath string) string { return strings.TrimPrefix(urlPath, "/") + ".mdx" }

func checkOutOfScopeEntries(t *testing.T, dir string, reg *Registry) {
	for _, p := range reg.OutOfScope.Pages {
		if strings.TrimSpace(p.Reason) == "" {
			t.Errorf("%s: out-of-scope page %s has no reason", reg.Revision, p.Path)
		}
		if _, err := os.Stat(filepath.Join(dir, "docs", "specification", reg.Revision, p.Path)); err != nil {
			t.Errorf("%s: out-of-scope page %s does not exist", reg.Revision, p.Path)
		}
	}
	for _, s := range reg.OutOfScope.Sentences {
		page, err := ReadPage(dir, reg.Revision, s.Page)
		if err != nil || len(page.Find(s.Quote)) == 0 {
			t.Errorf("%s: out-of-scope sentence not found in %s: %q", reg.Revision, s.Page, s.Quote)
		}
		if strings.TrimSpace(s.Reason) == "" {
			t.Errorf("%s: out-of-scope sentence %q has no reason", reg.Revision, s.Quote)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Result Responses":                       "result-responses",
		"`_meta`":                                "_meta",
		"Protocol Version Header":                "protocol-version-header",
		"Listening for Messages from the Server": "listening-for-messages-from-the-server",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func cachedPage(cache map[string]*Page, dir, rev, path string) (*Page, error) {
	if p, ok := cache[path]; ok {
		return p, nil
	}
	p, err := ReadPage(dir, rev, path)
	if err == nil {
		cache[path] = p
	}
	return p, err
}

func mustLoadRegistered(t *testing.T, rev string) *Registry {
	t.Helper()
	r, err := loadRegistered(rev)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A staged revision is loaded for the registry tests but is no revision
// the build judges: Load refuses it, as the command line and the judge do.
func TestStagedRevisionsAreNotJudged(t *testing.T) {
	for _, rev := range staged {
		if KnownRevision(rev) {
			t.Errorf("%s is both staged and in Revisions", rev)
		}
		if _, err := Load(rev); err == nil {
			t.Errorf("Load(%q) succeeds for a staged revision", rev)
		}
	}
}

// The judge's test that every clause names an implemented check runs over
// Revisions only, so every check a staged registry names must be one a
// judged registry names, and so one that test holds to the judge.
func TestStagedChecksAreJudgedChecks(t *testing.T) {
	known := map[string]bool{}
	for _, rev := range Revisions {
		for _, c := range MustLoad(rev).Clauses {
			if c.Judged() {
				known[c.Check] = true
			}
		}
	}
	for _, rev := range staged {
		for _, c := range mustLoadRegistered(t, rev).Clauses {
			if c.Judged() && !known[c.Check] {
				t.Errorf("%s %s names check %q, which no judged revision's clause names", rev, c.ID, c.Check)
			}
		}
	}
}
