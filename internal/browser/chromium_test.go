package browser

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// BrowserEnv names the Chromium binary; scripts/test sets it after
// installing Debian's chromium package.
const BrowserEnv = "MCPVERDICT_CHROMIUM"

// chromium finds the browser. Without one the tests skip, except in CI,
// where scripts/test installs it and a missing browser is a failure.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(BrowserEnv); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("no Chromium found (set %s, or apt-get install chromium): CI runs the browser tests", BrowserEnv)
	}
	t.Skipf("no Chromium found (set %s, or apt-get install chromium)", BrowserEnv)
	return ""
}

// page is one browser tab whose every request and console message is
// watched: allowed says which URLs the page may ask for.
type page struct {
	t       *testing.T
	ctx     context.Context
	mu      sync.Mutex
	errors  []string
	allowed func(u *url.URL) bool
}

func newPage(t *testing.T, allowed func(u *url.URL) bool) *page {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium(t)), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 1000))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	p := &page{t: t, allowed: allowed}
	ctx, cancelC := chromedp.NewContext(actx, chromedp.WithListener(p.watch))
	t.Cleanup(func() { cancelC(); cancelA() })
	p.ctx = ctx
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.checkQuiet)
	return p
}

func (p *page) watch(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			p.errors = append(p.errors, "console."+string(ev.Type)+": "+consoleText(ev.Args))
		}
	case *runtime.EventExceptionThrown:
		text := ev.ExceptionDetails.Text
		if ev.ExceptionDetails.Exception != nil {
			text += " " + ev.ExceptionDetails.Exception.Description
		}
		p.errors = append(p.errors, "exception: "+text)
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
			p.errors = append(p.errors, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
		}
	case *network.EventRequestWillBeSent:
		u, err := url.Parse(ev.Request.URL)
		if err != nil || !p.allowed(u) {
			p.errors = append(p.errors, "request leaving the page: "+ev.Request.URL)
		}
	}
}

func consoleText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		var str string
		if json.Unmarshal(a.Value, &str) == nil {
			parts = append(parts, str)
			continue
		}
		parts = append(parts, string(a.Value)+a.Description)
	}
	return strings.Join(parts, " ")
}

// checkQuiet fails the test on any console error, exception, CSP report
// or request that was not allowed.
func (p *page) checkQuiet() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.errors {
		p.t.Error(e)
	}
}

// do runs steps under a deadline of its own: the first call also starts
// the browser, whose context must not carry one.
func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatal(err)
	}
}

func get[T any](p *page, a chromedp.Action[T]) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		p.t.Fatal(err)
	}
	return v
}

// open loads u and waits until ready, a CSS selector, is visible: for
// report.html, until its script has laid the page out. It returns how
// long that took.
func (p *page) open(u string, ready string) time.Duration {
	p.t.Helper()
	start := time.Now()
	p.do(chromedp.Navigate(u), chromedp.WaitVisible(chromedp.CSS(ready)))
	return time.Since(start)
}

func (p *page) text(sel string) string {
	p.t.Helper()
	return get(p, chromedp.Text(chromedp.CSS(sel)))
}

func (p *page) count(sel string) int {
	p.t.Helper()
	return get(p, chromedp.Evaluate[int](`document.querySelectorAll(`+jsString(sel)+`).length`))
}

func (p *page) click(sel string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(sel)))
}

func (p *page) screenshot(name string) {
	p.t.Helper()
	png := get(p, chromedp.FullScreenshot(100))
	path := filepath.Join(p.t.ArtifactDir(), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// fileOnly allows the page itself and nothing else: report.html loads
// nothing.
func fileOnly(page string) func(*url.URL) bool {
	return func(u *url.URL) bool { return u.Scheme == "file" && u.Path == page || u.Scheme == "data" }
}

// loopbackOnly allows requests to 127.0.0.1 only, as serve's pages make.
func loopbackOnly(u *url.URL) bool {
	return u.Scheme == "http" && (u.Hostname() == "127.0.0.1" || u.Hostname() == "::1")
}
