package serve

import "html/template"

// pages are the list, search and diff pages: rendered here, with no
// script, every string from a trace escaped by html/template.
var pages = template.Must(template.New("pages").Parse(`
{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>mcpverdict serve</title>
<style>{{.Style}}</style>
</head>
<body>
<p><a href="{{if .Up}}../{{else}}./{{end}}">sessions</a></p>
<form action="search" method="get"><input type="search" name="q" value="{{.Q}}" placeholder="method, id, clause id, text" id="q"> <button type="submit">search</button></form>
{{end}}

{{define "compare"}}<form action="diff" method="get" id="compare">compare
<select name="a">{{range $i, $s := .Sessions}}{{if $s.Report}}<option value="{{$i}}"{{if eq $i $.IA}} selected{{end}}>{{$s.Name}}</option>{{end}}{{end}}</select>
with
<select name="b">{{range $i, $s := .Sessions}}{{if $s.Report}}<option value="{{$i}}"{{if eq $i $.IB}} selected{{end}}>{{$s.Name}}</option>{{end}}{{end}}</select>
<button type="submit">diff</button></form>
{{end}}

{{define "index"}}{{template "head" .}}
<h1>Sessions</h1>
<table id="sessions">
<tr><th>trace</th><th>verdict</th><th>revision</th><th>events</th><th>failed clauses</th></tr>
{{range $i, $s := .Sessions}}<tr>
{{if $s.Report}}<td><a href="session/{{$i}}">{{$s.Name}}</a></td><td class="v-{{$s.Verdict}}">{{$s.Verdict}}</td><td>{{range $s.Report.Runs}}{{.Revision}} {{end}}</td><td>{{len $s.Events}}</td><td>{{$s.Failed}}</td>
{{else}}<td>{{$s.Name}}</td><td class="v-unreadable">unreadable</td><td colspan="3">{{$s.Unreadable}}</td>{{end}}
</tr>{{else}}<tr><td colspan="5">No trace (*.jsonl) in the folders served.</td></tr>{{end}}
</table>
{{template "compare" .}}
</body></html>{{end}}

{{define "search"}}{{template "head" .}}
<h1>Search: {{.Q}}</h1>
{{range .Results}}<h2><a href="session/{{.Index}}">{{.Session.Name}}</a></h2>
<table class="hits">
{{range .Hits}}<tr><td><a href="session/{{.Session}}#run=0&amp;line={{.Line}}">line {{.Line}}</a></td><td class="mono">{{.What}}</td><td class="mono">{{.Text}}</td></tr>
{{end}}</table>{{if .More}}<p>{{.More}} more in this session.</p>{{end}}
{{else}}<p>Nothing matches.</p>{{end}}
</body></html>{{end}}

{{define "diff"}}{{template "head" .}}
<h1>Diff</h1>
{{template "compare" .}}
<p>a: <a href="session/{{.IA}}">{{.D.A.Name}}</a> ({{.D.A.Verdict}}) · b: <a href="session/{{.IB}}">{{.D.B.Name}}</a> ({{.D.B.Verdict}})</p>
<h2>Clauses whose outcome differs</h2>
<table id="clause-diff"><tr><th>clause</th><th>a</th><th>b</th></tr>
{{range .D.Clauses}}<tr><td>{{.ID}}</td><td class="v-{{.A}}">{{.A}}</td><td class="v-{{.B}}">{{.B}}</td></tr>
{{else}}<tr><td colspan="3">Every clause has the same outcome.</td></tr>{{end}}</table>
<h2>Messages that differ</h2>
<p>{{.D.Same}} messages are the same on both sides (aligned by direction, method and id).</p>
<table id="message-diff"><tr><th>message</th><th>a</th><th>b</th></tr>
{{range .Rows}}<tr class="{{if not .LineB}}only-a{{else if not .LineA}}only-b{{else}}changed{{end}}"><td class="mono">{{.Key}}</td>
<td>{{if .LineA}}<a href="session/{{$.IA}}#run=0&amp;line={{.LineA}}">line {{.LineA}}</a>{{else}}none{{end}}</td>
<td>{{if .LineB}}<a href="session/{{$.IB}}#run=0&amp;line={{.LineB}}">line {{.LineB}}</a>{{else}}none{{end}}</td></tr>
{{end}}</table>{{if .Cut}}<p>{{.Cut}} more rows differ.</p>{{end}}
</body></html>{{end}}
`))
