package serve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// folder copies two corpus traces and a malformed one into a fresh folder.
func folder(t *testing.T) string {
	t.Helper()
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
	broken := `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"lifecycle","event":"transport-open"}` + "\n{not json\n"
	if err := os.WriteFile(filepath.Join(dir, "broken.jsonl"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func testServer(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	sessions, err := Catalog([]string{folder(t)}, judge.Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(sessions)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestCatalogListsAnUnreadableTraceWithItsLine(t *testing.T) {
	s, ts := testServer(t)
	if len(s.Sessions) != 3 || s.Sessions[2].Verdict() != "unreadable" || !strings.HasPrefix(s.Sessions[2].Unreadable, "line 2:") {
		t.Fatalf("sessions: %+v", s.Sessions)
	}
	code, body := get(t, ts.URL+"/"+s.Token+"/")
	if code != 200 || !strings.Contains(body, "unreadable") || !strings.Contains(body, `href="session/0"`) || !strings.Contains(body, `href="session/1"`) {
		t.Errorf("index %d:\n%s", code, body)
	}
	if code, _ := get(t, ts.URL+"/"+s.Token+"/session/2"); code != 404 {
		t.Errorf("the unreadable session's page answered %d", code)
	}
}

func TestPagesNeedTheTokenAndALoopbackHost(t *testing.T) {
	s, ts := testServer(t)
	for _, path := range []string{"/", "/session/0", "/" + s.Token[:8] + "/", "/" + s.Token + "x/", "/x" + s.Token + "/"} {
		if code, _ := get(t, ts.URL+path); code != 404 {
			t.Errorf("%s answered %d", path, code)
		}
	}
	req, _ := http.NewRequest("GET", ts.URL+"/"+s.Token+"/", nil)
	req.Host = "evil.example:80"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("a foreign Host answered %d", resp.StatusCode)
	}
	resp, err = http.Post(ts.URL+"/"+s.Token+"/", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("a POST answered %d", resp.StatusCode)
	}
}

func TestSessionPageIsTheReport(t *testing.T) {
	s, ts := testServer(t)
	resp, err := http.Get(ts.URL + "/" + s.Token + "/session/0")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if !strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") || !strings.Contains(string(b), `id="report-data"`) {
		t.Errorf("session page: %s\n%.300s", resp.Header, b)
	}
}

func TestSearchFindsClausesMethodsAndText(t *testing.T) {
	s, ts := testServer(t)
	for q, want := range map[string]string{"BASE-": "BASE-", "initialize": "initialize", "corpus-client": "corpus-client"} {
		_, body := get(t, ts.URL+"/"+s.Token+"/search?q="+q)
		if !strings.Contains(body, want) || strings.Contains(body, "Nothing matches") {
			t.Errorf("search %q:\n%s", q, body)
		}
	}
	if _, body := get(t, ts.URL+"/"+s.Token+"/search?q=zzzz-nowhere"); !strings.Contains(body, "Nothing matches") {
		t.Error("a search that matches nothing lists something")
	}
}

func TestDiffAlignsMessagesAndListsClauses(t *testing.T) {
	s, ts := testServer(t)
	d := Compare(s.Sessions[0], s.Sessions[1])
	if len(d.Clauses) == 0 {
		t.Error("no clause differs between a violation and a conforming session")
	}
	found := false
	for _, c := range d.Clauses {
		if strings.HasPrefix(c.ID, "BASE-") && c.A == "fail" {
			found = true
		}
	}
	if !found {
		t.Errorf("the failed BASE clause is not in the diff: %+v", d.Clauses)
	}
	code, body := get(t, ts.URL+"/"+s.Token+"/diff?a=0&b=1")
	if code != 200 || !strings.Contains(body, `id="clause-diff"`) || !strings.Contains(body, "client-to-server initialize 1") {
		t.Errorf("diff %d:\n%s", code, body)
	}
	if code, _ := get(t, ts.URL+"/"+s.Token+"/diff?a=0&b=2"); code != 400 {
		t.Errorf("a diff with the unreadable session answered %d", code)
	}
}

func TestListenRefusesAnAddressOffLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "10.0.0.1:80", "example.com:80"} {
		if err := Loopback(addr); err == nil {
			t.Errorf("%s taken for loopback", addr)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0", "localhost:0"} {
		if err := Loopback(addr); err != nil {
			t.Errorf("%s: %v", addr, err)
		}
	}
}
