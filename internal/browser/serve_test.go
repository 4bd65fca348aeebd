package browser

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/serve"
)

// TestServePages: the list names the unreadable trace, a session's page
// shows its finding pinned, and the diff lists the clause that differs;
// no page asks for anything off loopback.
func TestServePages(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.jsonl": "corpus/violations/base-request-id-reuse.jsonl",
		"b.jsonl": "corpus/good/base-session-2025-11-25.jsonl",
	} {
		data, err := os.ReadFile(filepath.Join(moduleRoot(), src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.jsonl"), []byte("{not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sessions, err := serve.Catalog([]string{dir}, judge.Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New(sessions)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler()) // listens on 127.0.0.1
	t.Cleanup(ts.Close)
	base := ts.URL + "/" + srv.Token + "/"

	p := newPage(t, loopbackOnly)
	p.open(base, "#sessions")
	if list := p.text("#sessions"); !strings.Contains(list, "broken.jsonl") || !strings.Contains(list, "unreadable") || !strings.Contains(list, "line 1") {
		t.Errorf("the list: %q", list)
	}
	p.screenshot("serve-list")

	p.open(base+"session/0#run=0&line=6", "body[data-ready=true] #timeline .row.selected")
	if got := p.text("#verdict"); got != "fail" {
		t.Errorf("verdict %q", got)
	}
	if row := p.text("#timeline .row.selected"); !strings.Contains(row, "BASE-005") {
		t.Errorf("the linked message %q carries no finding", row)
	}
	p.screenshot("serve-session")

	p.open(base+"search?q=tools%2Flist", ".hits")
	if hits := p.text(".hits"); !strings.Contains(hits, "tools/list") {
		t.Errorf("search: %q", hits)
	}

	p.open(base, "#compare")
	p.do(chromedp.SetValue(chromedp.CSS(`#compare select[name=a]`), "0"), chromedp.SetValue(chromedp.CSS(`#compare select[name=b]`), "1"),
		chromedp.Click(chromedp.CSS(`#compare button`)), chromedp.WaitVisible(chromedp.CSS("#clause-diff")))
	if diff := p.text("#clause-diff"); !strings.Contains(diff, "BASE-005") {
		t.Errorf("the diff does not list BASE-005: %q", diff)
	}
	p.screenshot("serve-diff")
}
