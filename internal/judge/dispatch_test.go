package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// dispatchRevisions are the revisions every trace is judged under when the
// dispatch table is held to calling every rule: the one it declares, and
// each of the two kinds of session.
var dispatchRevisions = [][]string{nil, {"2025-11-25"}, {"2026-07-28"}}

// judgedByEveryRule is judgedJSON with every rule called for every message.
func judgedByEveryRule(t testing.TB, data []byte, revs []string) []byte {
	return reportJSON(t, judgeBytes(data, engine.Options{Revisions: revs, EveryRule: true}))
}

// Every corpus trace, under each revision, gives the very report it gives
// when every rule is called for every message: no rule's Sees leaves out a
// message its Message would have judged.
func TestDispatchedAsEveryRule(t *testing.T) {
	for _, ct := range judgetest.LoadCorpus(t) {
		data, err := os.ReadFile(ct.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, revs := range append(dispatchRevisions, ct.Revisions) {
			want := judgedByEveryRule(t, data, revs)
			if got := judgedJSON(t, data, revs); !bytes.Equal(got, want) {
				t.Errorf("%s/%s under %v: the report differs from the one every rule gives%s", ct.Dir, ct.Name, revs, misdeclared(t, data, revs, want))
			}
		}
	}
}

// FuzzJudgeDispatched holds the report on any trace, under each revision,
// to the one it gives when every rule is called for every message. Its
// seeds, the corpus, are TestDispatchedAsEveryRule's traces.
func FuzzJudgeDispatched(f *testing.F) {
	addCorpusSeedsToFuzz(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, revs := range dispatchRevisions {
			want := judgedByEveryRule(t, data, revs)
			if got := judgedJSON(t, data, revs); !bytes.Equal(got, want) {
				t.Fatalf("under %v: the report differs from the one every rule gives%s\n got %s\nwant %s",
					revs, misdeclared(t, data, revs, want), got, want)
			}
		}
	})
}

// misdeclared names the rules whose Sees, when dropped, make the report
// want again: those that leave out messages they judge.
func misdeclared(t testing.TB, data []byte, revs []string, want []byte) string {
	var out string
	for i := range engine.RuleSpecs {
		sees := engine.RuleSpecs[i].Sees
		if sees == nil {
			continue
		}
		engine.RuleSpecs[i].Sees = nil
		if bytes.Equal(judgedJSON(t, data, revs), want) {
			out += "\n\tthe Sees of " + ruleName(i) + " leave out messages it judges"
		}
		engine.RuleSpecs[i].Sees = sees
	}
	return out
}

// ruleName names a rule by its first check.
func ruleName(i int) string {
	if len(engine.RuleSpecs[i].Checks) == 0 {
		return fmt.Sprintf("rule %d, which has no checks,", i)
	}
	return "the rule of " + engine.RuleSpecs[i].Checks[0].ID
}

// sightCase is a message and whether a sight takes it.
type sightCase struct {
	payload   string
	server    bool
	answers   string // the method of the request a response answers
	transport trace.Transport
	stateless bool
	want      bool
}

func TestSightTakes(t *testing.T) {
	const ping, listResult = `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`
	inputRequired := `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{}}}`
	retry := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","requestState":"x"}}`
	for _, tc := range []struct {
		sight engine.Sight
		cases []sightCase
	}{
		{engine.Sees(engine.RequestMsgs, spec.Client, "ping"), []sightCase{
			{payload: ping, want: true},
			{payload: ping, server: true},
			{payload: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
			{payload: `{"jsonrpc":"2.0","id":1,"method":"no/such/method"}`},
		}},
		{engine.Sees(engine.ResponseMsgs, "", "tools/list"), []sightCase{
			{payload: listResult, server: true, answers: "tools/list", want: true},
			{payload: `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}`, answers: "tools/list", want: true},
			{payload: listResult, server: true},
			{payload: listResult, server: true, answers: "ping"},
			{payload: `{"jsonrpc":"2.0","method":"tools/list"}`},
		}},
		{engine.Sight{Kinds: engine.ResultMsgs | engine.RequestMsgs, InputRound: true}, []sightCase{
			{payload: inputRequired, server: true, answers: "tools/call", want: true},
			{payload: inputRequired, server: true},
			{payload: listResult, server: true, answers: "tools/list"},
			{payload: retry, want: true},
			{payload: retry, server: true},
			{payload: ping},
		}},
		{engine.Sight{Transport: trace.Stdio, Sessions: engine.StatelessOnly}, []sightCase{
			{payload: ping, transport: trace.Stdio, stateless: true, want: true},
			{payload: ping, transport: trace.Stdio},
			{payload: ping, transport: trace.StreamableHTTP, stateless: true},
		}},
		{engine.Sight{Kinds: engine.InvalidMsgs}, []sightCase{
			{payload: `{"jsonrpc":"2.0","id":1}`, server: true, want: true},
			{payload: `[]`, want: true},
			{payload: ping},
		}},
		{engine.Sees(engine.WellFormedMsgs, spec.Server), []sightCase{
			{payload: listResult, server: true, want: true},
			{payload: `{"jsonrpc":"2.0","id":1}`, server: true},
			{payload: listResult},
		}},
		{engine.Sight{}, []sightCase{
			{payload: `not json`, want: true},
			{payload: `{"jsonrpc":"2.0","method":"no/such/method"}`, want: true},
		}},
	} {
		engine.NoteSightMethods([]engine.Sight{tc.sight})
		for _, c := range tc.cases {
			if got := tc.sight.Takes(engine.ClassOf(sightCaseMsg(c)), c.stateless); got != c.want {
				t.Errorf("sight %+v takes %+v: %v, want %v", tc.sight, c, got, c.want)
			}
		}
	}
}

// sightCaseMsg is the message of c, as the engine has it when it asks
// which rules judge it.
func sightCaseMsg(c sightCase) *message.Msg {
	ev := &trace.Event{Kind: trace.KindMessage, Direction: trace.ClientToServer, Transport: c.transport}
	if c.server {
		ev.Direction = trace.ServerToClient
	}
	if json.Valid([]byte(c.payload)) {
		ev.Payload = []byte(c.payload)
	}
	m := message.ParseMessages(nil, ev)[0]
	if c.answers != "" {
		m.Request = &message.Request{Method: c.answers}
	}
	return m
}

// placeRule notes its place in the registry on every message it judges.
type placeRule struct {
	engine.BaseRule
	place int
	calls *[]int
}

func (r placeRule) Message(*engine.Session, *message.Msg) { *r.calls = append(*r.calls, r.place) }

// A registry of far more rules than a machine word has bits calls each of
// them for a message they all see, once and in the order they were
// registered: the dispatch table sets no ceiling on rules.
func TestDispatchHasNoRuleCeiling(t *testing.T) {
	registered := engine.RuleSpecs
	t.Cleanup(func() { engine.RuleSpecs = registered })
	engine.RuleSpecs = slices.Clip(engine.RuleSpecs)
	var calls, want []int
	for place := len(registered); place < len(registered)+200; place++ {
		engine.RuleSpecs = append(engine.RuleSpecs, engine.RuleSpec{
			New:  func() engine.Rule { return placeRule{place: place, calls: &calls} },
			Sees: []engine.Sight{engine.Sees(engine.RequestMsgs, spec.Client)},
		})
		want = append(want, place)
	}
	ping := `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"seq":1,"direction":"server-to-client","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"result":{}}}
`
	judgeBytes([]byte(ping), engine.Options{Revisions: []string{"2025-11-25"}})
	if !slices.Equal(calls, want) {
		t.Errorf("of %d rules registered after the build's %d, the ping went to %v; want each once, in order: %v", len(want), len(registered), calls, want)
	}
}
