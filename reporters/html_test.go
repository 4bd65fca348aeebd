package reporters

import (
	"bytes"
	"encoding/json"
	"errors"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

const hostileMarkup = `</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)>`

// TestHTMLEscapesWireStrings: a finding's message and a message's payload
// that try to close the data element and open markup stay text inside it.
func TestHTMLEscapesWireStrings(t *testing.T) {
	rep := syntheticReport()
	rep.Runs[0].Clauses[0].Findings[0].Message = hostileMarkup
	doc := ForClauses(rep)
	doc.ReadTrace = func(string) ([]trace.Event, error) {
		raw := hostileMarkup
		return []trace.Event{{Line: 1, Kind: trace.KindMessage, Direction: trace.ServerToClient, Raw: &raw}}, nil
	}
	var buf bytes.Buffer
	if err := (HTML{}).Write(&buf, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("the page has %d script elements, want its data and its own script", n)
	}
	for _, bad := range []string{"alert(1)</script>", "<img", "<!--"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q as markup", bad)
		}
	}
	var back htmlReport
	if err := json.Unmarshal([]byte(between(t, page, `<script type="application/json" id="report-data">`, "</script>")), &back); err != nil {
		t.Fatalf("the data element is not JSON: %v", err)
	}
	if back.Runs[0].Events[0].Payload != hostileMarkup {
		t.Errorf("the payload came back as %q", back.Runs[0].Events[0].Payload)
	}
}

// TestHTMLPolicyNamesItsOwnCode: the policy lets run exactly the script
// and the style the page holds, and loads nothing.
func TestHTMLPolicyNamesItsOwnCode(t *testing.T) {
	var buf bytes.Buffer
	if err := (HTML{}).Write(&buf, ForClauses(syntheticReport()), Options{}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	policy := regexp.MustCompile(`http-equiv="Content-Security-Policy" content="([^"]*)"`).FindStringSubmatch(page)
	if policy == nil {
		t.Fatal("no Content-Security-Policy meta tag")
	}
	got := html.UnescapeString(policy[1])
	if got != HTMLPolicy || !strings.HasPrefix(got, "default-src 'none';") {
		t.Errorf("policy %q", got)
	}
	script := between(t, page, "<script>", "</script>")
	style := between(t, page, "<style>", "</style>")
	if !strings.Contains(got, sourceHash(script)) || !strings.Contains(got, sourceHash(style)) {
		t.Error("the policy does not name the hashes of the page's script and style")
	}
	if strings.Contains(page, "http://") || strings.Contains(script, "https://") {
		t.Error("the page names a URL it could load")
	}
}

func TestHTMLTimelineSaysWhyItIsMissing(t *testing.T) {
	doc := ForClauses(syntheticReport())
	doc.ReadTrace = func(string) ([]trace.Event, error) {
		return nil, &trace.ParseError{File: "x", Line: 7, Problem: "invalid JSON"}
	}
	if got := buildHTMLReport(doc).Runs[0].Unreadable; got != "line 7 cannot be read: invalid JSON" {
		t.Errorf("unreadable = %q", got)
	}
	doc.ReadTrace = func(string) ([]trace.Event, error) { return nil, errors.New("boom") }
	if got := buildHTMLReport(doc).Runs[0].Unreadable; got != "boom" {
		t.Errorf("unreadable = %q", got)
	}
}

func between(t *testing.T, s, start, end string) string {
	t.Helper()
	_, rest, ok := strings.Cut(s, start)
	if !ok {
		t.Fatalf("no %q", start)
	}
	in, _, ok := strings.Cut(rest, end)
	if !ok {
		t.Fatalf("no %q after %q", end, start)
	}
	return in
}

// TestHTMLGoldenWithProbesAndLedger: the page of a check that ran a probe,
// found a tool's contract moved and whose ledger head was signed.
func TestHTMLGoldenWithProbesAndLedger(t *testing.T) {
	doc := ForClauses(syntheticReport(), syntheticProbeReport())
	doc.ReadTrace = readFromModule
	doc.Ledger = &Ledger{Head: "sha256:" + strings.Repeat("0", 64), Signed: true, Bundle: "ledger.head.sigstore.json"}
	doc.Drift = []ToolDrift{
		{Check: "contract_mutated", Tool: "echo", Detail: `tool "echo" changed its contract since it was locked: description`,
			Changes: []FieldChange{{Field: "description", Old: []byte(`"Echoes."`), New: []byte(`"</script>"`)}}},
		{Check: "tool_added", Tool: "fresh", Detail: `tool "fresh" is not in the lockfile`},
	}
	var buf bytes.Buffer
	if err := (HTML{}).Write(&buf, doc, goldenOptions()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/synthetic-probe-ledger.html", withoutAssets(buf.Bytes()))
}

func TestHTMLDataEscapesInvisibleRunes(t *testing.T) {
	got := string(escapeInvisible([]byte("{\"a\":\"x\u009by\u202ez\"}")))
	if got != `{"a":"x\u009by\u202ez"}` {
		t.Errorf("escaped: %s", got)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(got), &back); err != nil || back["a"] != "x\u009by\u202ez" {
		t.Errorf("back: %q %v", back, err)
	}
}
