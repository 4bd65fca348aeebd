package reporters

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"unicode/utf8"
)

// HTML writes report.html: one file a reviewer opens from the artifact,
// that loads nothing and runs only its own script. The verdict, the
// findings by clause, each session's timeline with the findings pinned to
// their messages, the probes' verdicts, the contract drift and the ledger
// head are laid out by that script from the report carried as JSON.
type HTML struct{}

var _ Reporter = HTML{}

func init() { register(HTML{}) }

// Name is "html".
func (HTML) Name() string { return "html" }

var (
	//go:embed html/report.js
	htmlScript string
	//go:embed html/report.css
	htmlStyle string
)

// HTMLPolicy is the page's Content-Security-Policy: nothing loads from
// anywhere, and only the page's own script and style (named by their
// hashes) run, so a string the server sent cannot become markup that acts.
var HTMLPolicy = "default-src 'none'; script-src " + sourceHash(htmlScript) + "; style-src " + sourceHash(htmlStyle) +
	"; img-src data:; base-uri 'none'; form-action 'none'"

func sourceHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

var htmlPage = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.Policy}}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.Style}}</style>
</head>
<body>
<noscript>This report is laid out by its own script; report.json and report.txt beside it hold the same findings.</noscript>
{{with .Baseline}}<section id="baseline" class="clause">
<h2>{{.Title}}</h2>
<p>{{.Headline}}</p>
{{if .Rows}}<table>
<tr><th>change</th><th>what</th><th>then</th><th>now</th></tr>
{{range .Rows}}<tr><td>{{.Kind}}</td><td>{{.What}}</td><td>{{.Then}}</td><td>{{.Now}}</td></tr>
{{end}}</table>
{{end}}</section>
{{end}}{{if .Jobs}}<section id="jobs" class="clause">
<h2>Jobs ({{len .Jobs}})</h2>
<table>
<tr><th>job</th><th>server</th><th>verdict</th><th>pass</th><th>fail</th><th>warn</th><th>ledger head</th></tr>
{{range .Jobs}}<tr><td>{{.Name}}</td><td>{{range $i, $s := .Servers}}{{if $i}}, {{end}}{{$s}}{{end}}</td><td>{{.Verdict}}</td><td>{{.Totals.Pass}}</td><td>{{.Totals.Fail}}</td><td>{{.Totals.Warn}}</td><td>{{if .Head}}<code>{{.Head}}</code>{{if .Signed}} (signed){{end}}{{else}}none{{end}}</td></tr>
{{end}}</table>
</section>
{{end}}<main id="main"></main>
<script type="application/json" id="report-data">{{.Data}}</script>
<script>{{.Script}}</script>
</body>
</html>
`))

func (HTML) Write(w io.Writer, doc *Document, opts Options) error {
	if doc.Clauses == nil {
		return errNoClauses("html")
	}
	data, err := htmlData(buildHTMLReport(doc))
	if err != nil {
		return err
	}
	return htmlPage.Execute(w, struct {
		Policy, Title string
		Style         template.CSS
		Data          template.JS
		Script        template.JS
		Baseline      *htmlBaseline
		Jobs          []JobRow
	}{HTMLPolicy, "mcpverdict: " + string(doc.Clauses.Verdict), template.CSS(htmlStyle), data, template.JS(htmlScript), newHTMLBaseline(doc.Baseline), visibleJobs(doc.Jobs)})
}

// htmlData is the report as JSON that can stand inside a script element:
// encoding/json writes <, > and & (and U+2028, U+2029) as \u escapes, so
// no string the server sent can close the element or open a comment.
// DEL, the C1 controls and the bidirectional overrides are escaped too, so that
// a reader of the file's source sees them for what they are.
func htmlData(rep *htmlReport) (template.JS, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(rep); err != nil {
		return "", err
	}
	return template.JS(escapeInvisible(bytes.TrimSpace(buf.Bytes()))), nil
}

// escapeInvisible writes the runes a terminal or an editor would act on
// or hide as JSON escapes; outside its strings JSON holds only ASCII, so
// every such rune is inside a string, where the escape means the same.
func escapeInvisible(data []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if invisible(r) {
			out = append(append(out, data[last:i]...), fmt.Sprintf(`\u%04x`, r)...)
			last = i + size
		}
		i += size
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}

func invisible(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
