package engine

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
)

// Options shape a judgement.
type Options struct {
	// Revisions, when set, are judged instead of the one the trace declares.
	Revisions []string
	// Party, when set, scopes the verdict to findings against that party.
	Party spec.Party
	// Strict makes warnings fail the verdict.
	Strict bool
	// Extensions lists the extensions whose clauses count in the verdict
	// ("tasks"); the others are judged and reported beside it.
	Extensions []string
	// Version is the tool version written into the report.
	Version string
	// Schemas are the wire-schema validators by revision; a run whose
	// revision has none reports "wire schema: not checked".
	Schemas map[string]*wireschema.Validator
	// SchemasMissing, when set, is the reason given for an unchecked run.
	SchemasMissing string
	// WireWorkers is how many goroutines hold messages to the wire schema:
	// 0 for one per core the process may use (GOMAXPROCS), 1 for none but
	// the judge's own. The report is the same whatever the number.
	WireWorkers int
	// TraceWorkers is how many traces are judged at once: 0 for one per
	// core (GOMAXPROCS), 1 for one after the other. The report lists the
	// runs in the order of the inputs whatever the number.
	TraceWorkers int

	// EveryRule, set by tests, calls every rule for every message of a
	// session whatever its Sees, as the engine did before rules declared
	// what they see: the reference their Sees are held to.
	EveryRule bool
	// AfterTurn, set by tests, is called with every message once the rules
	// and the session are done with it, and before its Msg is reused.
	AfterTurn func(st *message.MsgStore, m *message.Msg)
}

// traceWorkers is the number of traces to judge at once.
func (o Options) traceWorkers() int {
	if o.TraceWorkers > 0 {
		return o.TraceWorkers
	}
	return runtime.GOMAXPROCS(0)
}

// wireWorkers is the number of wire-schema workers to use.
func (o Options) wireWorkers() int {
	if o.WireWorkers > 0 {
		return o.WireWorkers
	}
	return runtime.GOMAXPROCS(0)
}

// Input is one trace to judge: a name for the report and its events in order.
type Input struct {
	Name string
	// Next returns the next event, io.EOF at the end, or the error that
	// stopped the reading (the trace is then judged as far as it went and
	// reported incomplete).
	Next func() (*trace.Event, error)
}

// Judge judges every input and sums up the verdict.
func Judge(inputs []Input, opts Options) *Report {
	rep := &Report{Tool: "mcpverdict", Version: opts.Version, Party: string(opts.Party), Strict: opts.Strict}
	for _, runs := range judgeEach(inputs, opts) {
		rep.Runs = append(rep.Runs, runs...)
	}
	for _, r := range rep.Runs {
		rep.Totals.addAll(r.Totals)
	}
	rep.Verdict = verdict(rep.Runs, opts)
	rep.Extensions = extensionVerdicts(rep.Runs, opts)
	return rep
}

// judgeEach judges the inputs, several at once when there are cores for
// them: a trace's runs depend on no other trace, and each input reads its
// own file.
func judgeEach(inputs []Input, opts Options) [][]Run {
	out := make([][]Run, len(inputs))
	workers := min(opts.traceWorkers(), len(inputs))
	if workers <= 1 {
		for i, in := range inputs {
			out[i] = judgeOne(in, opts)
		}
		return out
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = judgeOne(inputs[i], opts)
			}
		}()
	}
	for i := range inputs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func judgeOne(in Input, opts Options) []Run {
	exchanges := trace.TieExchanges(in.Next)
	in.Next = exchanges.Next
	var held []*trace.Event
	guess := &revisionGuess{}
	var readErr error
	for len(opts.Revisions) == 0 && len(held) < detectLimit {
		ev, err := in.Next()
		if err != nil {
			readErr = err
			break
		}
		held = append(held, ev)
		if guess.Observe(ev) {
			break
		}
	}
	runs := startRuns(in.Name, guess, opts)
	for _, ev := range held {
		feedAll(runs, ev)
	}
	if readErr == nil {
		readErr = drain(in, runs)
	}
	runs2 := finishAll(runs, readErr, opts)
	markUntied(runs2, exchanges)
	return runs2
}

// markUntied makes a run whose streamable-HTTP events could not all be
// tied to an HTTP exchange incomplete: the transport clauses never saw
// them, and a pass would claim what was not judged.
func markUntied(runs []Run, x *trace.Exchanges) {
	if x.Untied == 0 {
		return
	}
	for i := range runs {
		if runs[i].Incomplete != "" {
			continue
		}
		runs[i].Incomplete = fmt.Sprintf(UntiedHTTP, x.Untied, x.FirstUntied)
		runs[i].IncompleteLine = x.FirstUntied
	}
}

// UntiedHTTP is why a run is incomplete whose streamable-HTTP events
// precede every HTTP request of the trace, and so belong to none.
const UntiedHTTP = "%d streamable-HTTP events, the first at line %d, come before any client http event and belong to no HTTP exchange, so the transport clauses did not judge them: record the request heads (kind http, direction client) before the messages they carry"

func startRuns(name string, guess *revisionGuess, opts Options) []*run {
	if len(opts.Revisions) > 0 {
		runs := make([]*run, len(opts.Revisions))
		for i, rev := range opts.Revisions {
			runs[i] = NewRun(name, rev, SourceFlag, opts)
		}
		return runs
	}
	c := guess.choose(spec.KnownRevision, spec.Newest(), spec.NewestHandshake())
	r := NewRun(name, c.rev, c.source, opts)
	if c.note != "" {
		r.Notes = append(r.Notes, c.note)
	}
	return []*run{r}
}

func drain(in Input, runs []*run) error {
	for {
		ev, err := in.Next()
		if err != nil {
			return err
		}
		feedAll(runs, ev)
	}
}

func feedAll(runs []*run, ev *trace.Event) {
	for _, r := range runs {
		r.feed(ev)
	}
}

func finishAll(runs []*run, readErr error, opts Options) []Run {
	out := make([]Run, 0, len(runs))
	for _, r := range runs {
		res := r.finish(opts)
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			res.Incomplete = readErr.Error()
			var pe *trace.ParseError
			if errors.As(readErr, &pe) {
				res.IncompleteLine = pe.Line
			}
		}
		if res.Incomplete == "" && res.Messages == 0 {
			// A report on no message at all would pass every clause it
			// could not see; an empty trace is incomplete, not sound.
			res.Incomplete = NoMessages
		}
		out = append(out, res)
	}
	return out
}

// NoMessages is why a run over a trace that holds no MCP message is
// incomplete.
const NoMessages = "the trace holds no MCP message"

func verdict(runs []Run, opts Options) Verdict {
	var t Totals
	wireInvalid := 0
	for _, r := range runs {
		if r.Incomplete != "" {
			return VerdictIncomplete
		}
		t.addAll(r.Totals)
		wireInvalid += r.Wire.invalidFor(opts.Party)
	}
	switch {
	case t.Fail > 0 || wireInvalid > 0 || (opts.Strict && t.Warn > 0):
		return VerdictFail
	case t.Warn > 0:
		return VerdictPassWithWarnings
	}
	return VerdictPass
}
