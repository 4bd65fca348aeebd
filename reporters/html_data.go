package reporters

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"

	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// htmlReport is what report.html carries as data: the page's script lays
// it out. Keys are short because a timeline of many events repeats them.
type htmlReport struct {
	Tool     string        `json:"tool"`
	Version  string        `json:"version"`
	Verdict  string        `json:"verdict"`
	Scope    string        `json:"scope,omitempty"`
	Totals   judge.Totals  `json:"totals"`
	Clauses  []htmlClause  `json:"clauses"`
	Contract []htmlFinding `json:"contract"`
	Drift    []htmlDrift   `json:"drift"`
	Runs     []htmlRun     `json:"runs"`
	Probes   []htmlProbe   `json:"probes"`
	Ledger   *Ledger       `json:"ledger,omitempty"`
	Wire     []htmlFinding `json:"wire"`
	// Extensions are the extensions' verdicts, beside the page's own.
	Extensions []htmlExtension `json:"extensions"`
}

// htmlClause is one clause with what it found, over every run.
type htmlClause struct {
	ID       string        `json:"id"`
	Level    string        `json:"level"`
	Outcome  string        `json:"outcome"`
	URL      string        `json:"url"`
	Quote    string        `json:"quote"`
	Reason   string        `json:"reason,omitempty"`
	Findings []htmlFinding `json:"findings"`
}

// htmlDrift is one tool that moved from its lockfile, field by field.
type htmlDrift struct {
	Tool    string       `json:"tool"`
	Check   string       `json:"check"`
	Detail  string       `json:"detail"`
	Changes []htmlChange `json:"changes"`
}

type htmlChange struct {
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// htmlFinding points at the message it concerns: run index and trace line.
type htmlFinding struct {
	Run     int    `json:"run"`
	Line    int    `json:"line"`
	Clause  string `json:"clause"`
	Party   string `json:"party"`
	Message string `json:"message"`
}

// htmlRun is one judged trace and its timeline.
type htmlRun struct {
	Trace      string       `json:"trace"`
	Revision   string       `json:"revision"`
	Transport  string       `json:"transport,omitempty"`
	Outcomes   judge.Totals `json:"totals"`
	Incomplete string       `json:"incomplete,omitempty"`
	Notes      []string     `json:"notes,omitempty"`
	// Unreadable says why the timeline is missing or cut short.
	Unreadable string      `json:"unreadable,omitempty"`
	Events     []htmlEvent `json:"events"`
}

// htmlEvent is one timeline row. The payload is kept as text: it may not
// be JSON, and the page only ever shows it.
type htmlEvent struct {
	Line     int    `json:"l"`
	Seq      int64  `json:"q"`
	Dir      string `json:"d"`
	Kind     string `json:"k"`
	Method   string `json:"m,omitempty"`
	ID       string `json:"i,omitempty"`
	HTTP     string `json:"h,omitempty"`
	Exchange int64  `json:"x,omitempty"`
	Stream   string `json:"s,omitempty"`
	Session  string `json:"n,omitempty"`
	MonoNS   int64  `json:"t,omitempty"`
	Payload  string `json:"p,omitempty"`
}

// htmlProbe is one probe report: verdicts per tool with their evidence.
type htmlProbe struct {
	Definition string          `json:"definition"`
	Runs       int             `json:"runs"`
	Attempts   int             `json:"attempts"`
	Tools      []htmlProbeTool `json:"tools"`
}

type htmlProbeTool struct {
	Tool  string             `json:"tool"`
	Tests []probe.TestResult `json:"tests"`
	// Evidence is the tool's cases (deltas per run, errored calls) as
	// indented JSON, shown on demand.
	Evidence string `json:"evidence"`
}

// maxPayloadText caps one message's text in the page: a result of
// megabytes would make the file too big to open, and the trace has it all.
const maxPayloadText = 64 << 10

func buildHTMLReport(doc *Document) *htmlReport {
	rep := visibleReport(doc.Clauses)
	out := &htmlReport{Tool: rep.Tool, Version: rep.Version, Verdict: string(rep.Verdict), Scope: scopeNote(rep),
		Totals: rep.Totals, Ledger: doc.Ledger, Clauses: []htmlClause{}, Contract: []htmlFinding{}, Runs: []htmlRun{}, Probes: []htmlProbe{}, Wire: []htmlFinding{}}
	byID := map[string]int{}
	read := doc.ReadTrace
	if read == nil {
		read = trace.ReadFile
	}
	out.Extensions = htmlExtensions(doc)
	for i := range rep.Runs {
		r := &rep.Runs[i]
		out.Runs = append(out.Runs, buildHTMLRun(r, read))
		for j := range r.Clauses {
			out.addClause(i, &r.Clauses[j], byID)
		}
		for _, w := range r.Wire.Invalid {
			out.Wire = append(out.Wire, htmlFinding{Run: i, Line: w.Line, Clause: WireRuleID(r.Revision), Party: string(w.Party),
				Message: fmt.Sprintf("%s at %s: %s", w.Definition, w.Pointer, w.Error)})
		}
	}
	for _, p := range doc.Probes {
		out.Probes = append(out.Probes, buildHTMLProbe(p))
	}
	out.Drift = buildHTMLDrift(doc.Drift)
	return out
}

func buildHTMLDrift(drift []ToolDrift) []htmlDrift {
	out := []htmlDrift{}
	for _, f := range drift {
		hd := htmlDrift{Tool: wiretext.Visible(f.Tool), Check: f.Check, Detail: wiretext.Visible(f.Detail), Changes: []htmlChange{}}
		for _, ch := range f.Changes {
			hd.Changes = append(hd.Changes, htmlChange{Field: ch.Field, Old: fieldValue(ch.Old), New: fieldValue(ch.New)})
		}
		out = append(out, hd)
	}
	return out
}

func fieldValue(b []byte) string {
	if b == nil {
		return "(absent)"
	}
	return string(b)
}

// addClause files a failed or warned clause's findings under its id; the
// contract's drift goes to its own list.
func (h *htmlReport) addClause(run int, c *judge.ClauseResult, byID map[string]int) {
	if c.Outcome != judge.Fail && c.Outcome != judge.Warn {
		return
	}
	id := ClauseRuleID(c.Clause)
	var found []htmlFinding
	for _, f := range c.Findings {
		found = append(found, htmlFinding{Run: run, Line: f.Line, Clause: id, Party: string(f.Party), Message: f.Message})
	}
	if c.Clause.Area == "CONTRACT" {
		h.Contract = append(h.Contract, found...)
		return
	}
	k, ok := byID[id]
	if !ok {
		k = len(h.Clauses)
		byID[id] = k
		h.Clauses = append(h.Clauses, htmlClause{ID: id, Level: string(c.Clause.Level), Outcome: string(c.Outcome),
			URL: c.Clause.URL, Quote: c.Clause.Quote, Reason: c.Reason, Findings: []htmlFinding{}})
	}
	h.Clauses[k].Findings = append(h.Clauses[k].Findings, found...)
}

func buildHTMLRun(r *judge.Run, read func(string) ([]trace.Event, error)) htmlRun {
	out := htmlRun{Trace: r.Trace, Revision: r.Revision, Transport: r.Transport, Outcomes: r.Totals,
		Incomplete: r.Incomplete, Notes: r.Notes, Events: []htmlEvent{}}
	events, err := read(r.Trace)
	if err != nil {
		out.Unreadable = unreadable(err)
	}
	out.Events = make([]htmlEvent, 0, len(events))
	// A response names no method: it shows its request's, so that a
	// reader sees what was answered.
	asked := map[string]string{}
	for i := range events {
		ev := timelineEvent(&events[i])
		switch key := ev.Session + " " + ev.ID; {
		case ev.ID == "" || ev.Kind != string(trace.KindMessage):
		case ev.Method != "":
			asked[ev.Dir+key] = ev.Method
		case asked[string(opposite(events[i].Direction))+key] != "":
			ev.Method = "↩ " + asked[string(opposite(events[i].Direction))+key]
		}
		out.Events = append(out.Events, ev)
	}
	return out
}

func opposite(d trace.Direction) trace.Direction {
	if d == trace.ClientToServer {
		return trace.ServerToClient
	}
	return trace.ClientToServer
}

// unreadable says why a timeline is missing or cut short, without the
// path the trace was opened at, which the run names already.
func unreadable(err error) string {
	var pe *trace.ParseError
	var fe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return fmt.Sprintf("line %d cannot be read: %s", pe.Line, pe.Problem)
	case errors.Is(err, fs.ErrNotExist):
		return "the trace is not at the path the report names"
	case errors.As(err, &fe):
		return "the trace cannot be read: " + fe.Err.Error()
	}
	return err.Error()
}

func timelineEvent(e *trace.Event) htmlEvent {
	ev := htmlEvent{Line: e.Line, Seq: e.Seq, Dir: string(e.Direction), Kind: string(e.Kind), Exchange: e.Exchange,
		Stream: e.Stream, Session: e.Session, MonoNS: e.MonoNS}
	switch {
	case e.Kind == trace.KindLifecycle:
		ev.Method = string(e.Event)
	case e.Method != "" || e.Status != 0:
		ev.HTTP = httpSummary(e)
	}
	body := string(e.Payload)
	if e.Raw != nil {
		body = *e.Raw
	} else if e.RawBase64 != "" {
		body = "(not UTF-8, base64) " + e.RawBase64
	}
	if len(e.Payload) > 0 {
		var m struct {
			Method string          `json:"method"`
			ID     json.RawMessage `json:"id"`
		}
		if json.Unmarshal(e.Payload, &m) == nil {
			ev.Method, ev.ID = m.Method, string(m.ID)
		}
	}
	if len(body) > maxPayloadText {
		body = body[:maxPayloadText] + "… (" + strconv.Itoa(len(body)) + " bytes: the trace holds the rest)"
	}
	ev.Payload = body
	return ev
}

func httpSummary(e *trace.Event) string {
	s := e.Method
	if e.Path != "" {
		s += " " + e.Path
	}
	if e.Status != 0 {
		if s != "" {
			s += " "
		}
		s += strconv.Itoa(e.Status)
	}
	return s
}

func buildHTMLProbe(p *probe.Report) htmlProbe {
	out := htmlProbe{Definition: p.Definition.Name, Runs: p.Runs, Attempts: p.ConcurrentAttempts, Tools: []htmlProbeTool{}}
	for _, t := range p.Tools {
		evidence, _ := json.MarshalIndent(t.Cases, "", "  ")
		out.Tools = append(out.Tools, htmlProbeTool{Tool: t.Tool, Tests: t.Tests, Evidence: string(evidence)})
	}
	return out
}
