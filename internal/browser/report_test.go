package browser

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcpverdict/mcpverdict/internal/cli"
	"github.com/mcpverdict/mcpverdict/internal/tracegen"
)

// reexecEnv makes the test binary act as mcpverdict, so that check can
// start its example server as `mcpverdict example-server`.
const reexecEnv = "MCPVERDICT_TEST_REEXEC"

func TestMain(m *testing.M) {
	if os.Getenv(reexecEnv) == "1" {
		cmd := cli.Command{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
		os.Exit(cmd.Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func mcpverdict(t *testing.T, want int, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := cli.Command{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}
	if code := cmd.Main(args); code != want {
		t.Fatalf("mcpverdict %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, stderr.String())
	}
}

// TestReportOfTheExampleServersCheck: the page check leaves opens in well
// under a second, says the verdict and names the ledger head.
func TestReportOfTheExampleServersCheck(t *testing.T) {
	t.Setenv(reexecEnv, "1")
	out := t.TempDir()
	mcpverdict(t, 0, "check", "--out", out)
	path := filepath.Join(out, "report.html")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t, fileOnly(path))
	took := p.open("file://"+path, "body[data-ready=true] #timeline .row")
	t.Logf("report.html: %d bytes, laid out in %v", info.Size(), took)
	if got := p.text("#verdict"); got != "pass" {
		t.Errorf("verdict %q", got)
	}
	if !strings.Contains(p.text("#ledger"), "sha256:") || !strings.Contains(p.text("#ledger"), "not signed") {
		t.Errorf("ledger: %q", p.text("#ledger"))
	}
	if n := p.count("#timeline .row"); n == 0 {
		t.Error("the timeline shows no message")
	}
	p.click("#timeline .row:nth-child(2)")
	if !strings.Contains(p.text("#detail pre"), `"jsonrpc"`) {
		t.Errorf("a click shows no JSON: %q", p.text("#detail"))
	}
	p.screenshot("example-check")
	if took > 5*time.Second {
		t.Errorf("the page took %v to lay out", took)
	}
}

// TestFindingIsPinnedToItsMessage: a finding's line opens the message it
// concerns, marked, with the clause beside its JSON.
func TestFindingIsPinnedToItsMessage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	mcpverdict(t, 1, "validate", "--html", path, "-o", filepath.Join(dir, "report.txt"),
		filepath.Join(moduleRoot(), "corpus/violations/base-request-id-reuse.jsonl"))
	p := newPage(t, fileOnly(path))
	p.open("file://"+path, "body[data-ready=true]")
	if got := p.text("#verdict"); got != "fail" {
		t.Errorf("verdict %q", got)
	}
	clause := p.text(".clause h3 a")
	if !strings.HasPrefix(clause, "BASE-") {
		t.Errorf("first clause %q", clause)
	}
	p.click(".finding button.goto")
	p.do(chromedp.WaitVisible(chromedp.CSS("#timeline .row.selected.pinned")))
	if got := p.text("#timeline .row.selected"); !strings.Contains(got, clause) {
		t.Errorf("the selected row %q does not carry %s", got, clause)
	}
	if d := p.text("#detail"); !strings.Contains(d, clause) || !strings.Contains(d, `"id"`) {
		t.Errorf("detail: %q", d)
	}
	p.screenshot("finding-pinned")
}

// TestReportOfAHundredThousandEvents: the first view of a long trace comes
// quickly, with only the rows in view in the page, and the last message
// is reachable.
func TestReportOfAHundredThousandEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("judges a trace of 100,000 events")
	}
	dir := t.TempDir()
	tracePath, path := filepath.Join(dir, "long.jsonl"), filepath.Join(dir, "report.html")
	f, err := os.Create(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := tracegen.Write(f, 100_000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	mcpverdict(t, 0, "validate", "--html", path, "-o", filepath.Join(dir, "report.txt"), tracePath)
	info, _ := os.Stat(path)
	p := newPage(t, fileOnly(path))
	took := p.open("file://"+path, "body[data-ready=true] #timeline .row")
	t.Logf("report.html of 100,000 events: %d bytes, first view in %v", info.Size(), took)
	if n := p.count(".row"); n > 200 {
		t.Errorf("%d rows in the page: the timeline is not virtualised", n)
	}
	events := get(p, chromedp.Evaluate[int](`JSON.parse(document.getElementById('report-data').textContent).runs[0].events.length`))
	if events < 100_000 {
		t.Errorf("the page holds %d events", events)
	}
	_ = get(p, chromedp.Evaluate[any](`var v = document.getElementById('timeline'); v.scrollTop = v.scrollHeight; v.dispatchEvent(new Event('scroll')); 0`))
	p.do(chromedp.Sleep(300 * time.Millisecond))
	last := p.text("#timeline .row:last-child span")
	if last == "" || last == "3" {
		t.Errorf("after scrolling to the end the last row is line %q", last)
	}
	p.screenshot("hundred-thousand")
	if took > 10*time.Second {
		t.Errorf("the first view took %v", took)
	}
}

// TestWatcherSeesWhatItMustRefuse: the watch these tests rely on notices
// a console error and a request leaving the page.
func TestWatcherSeesWhatItMustRefuse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "leaky.html")
	leaky := `<!DOCTYPE html><body><img src="http://127.0.0.2:9/x.png"><script>console.error("boom")</script><p id="x">x</p></body>`
	if err := os.WriteFile(path, []byte(leaky), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, fileOnly(path))
	p.open("file://"+path, "#x")
	p.do(chromedp.Sleep(300 * time.Millisecond))
	p.mu.Lock()
	seen := strings.Join(p.errors, "\n")
	p.errors = nil
	p.mu.Unlock()
	for _, want := range []string{"console.error: boom", "request leaving the page: http://127.0.0.2:9/x.png"} {
		if !strings.Contains(seen, want) {
			t.Errorf("the watch missed %q; it saw:\n%s", want, seen)
		}
	}
}

// ReportEnv names a report.html to open as the tests above do, to measure
// the page of another server's check (go test -run TestGivenReport -v).
const ReportEnv = "MCPVERDICT_REPORT_HTML"

func TestGivenReport(t *testing.T) {
	path := os.Getenv(ReportEnv)
	if path == "" {
		t.Skip("set " + ReportEnv + " to a report.html to open it")
	}
	path, _ = filepath.Abs(path)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t, fileOnly(path))
	took := p.open("file://"+path, "body[data-ready=true]")
	t.Logf("%s: %d bytes, verdict %s, laid out in %v", path, info.Size(), p.text("#verdict"), took)
	p.screenshot("given")
}

// TestContractDriftFieldByField: a moved description shows its locked and
// served values side by side.
func TestContractDriftFieldByField(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(moduleRoot(), "corpus/good/base-session-2025-11-25.jsonl")
	lock, path := filepath.Join(dir, "lock.json"), filepath.Join(dir, "report.html")
	mcpverdict(t, 0, "contract", "lock", "-o", lock, tr)
	b, _ := os.ReadFile(lock)
	if err := os.WriteFile(lock, []byte(strings.Replace(string(b), "Book a restaurant table after the user confirms.", "Book a table.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	mcpverdict(t, 1, "validate", "--contract", lock, "--html", path, "-o", filepath.Join(dir, "report.txt"), tr)
	p := newPage(t, fileOnly(path))
	p.open("file://"+path, "body[data-ready=true] #contract td.old")
	if old, now := p.text("#contract td.old"), p.text("#contract td.new"); old != `"Book a table."` || !strings.Contains(now, "restaurant") {
		t.Errorf("drift: locked %q, served %q", old, now)
	}
	p.screenshot("contract-drift")
}
