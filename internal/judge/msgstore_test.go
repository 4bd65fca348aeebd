package judge

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

var poisonedBytes = []byte(`{"poisoned":["_meta",1]}`)

var poisonedEvent = &trace.Event{Seq: -7, Line: -7, Kind: trace.KindMessage, Transport: "poisoned", Session: "poisoned",
	Exchange: -7, Payload: poisonedBytes, Method: "POISONED", Status: 599, Stream: "poisoned"}

// poison overwrites every field of m, and the members it holds in itself,
// with garbage that no trace says.
func poison(m *message.Msg) {
	*m = message.Msg{Event: poisonedEvent, From: "poisoned", Kind: message.KindRequest, InBatch: true, JSONRPC: "poisoned", HasJSONRPC: true,
		ID: poisonedBytes, IDKey: "s:poisoned", Method: "poisoned/method", Params: poisonedBytes, Result: poisonedBytes,
		Error: &message.RPCError{Code: poisonedBytes}, Problem: "poisoned", Body: poisonedBytes, HTTPErrorBody: true,
		Request: &message.Request{From: "poisoned", Method: "poisoned/method", IDKey: "s:poisoned", Seq: -7, Line: -7}, Answered: true}
	for i := range m.Inline {
		m.Inline[i] = message.Member{Key: []byte("poisoned"), Value: poisonedBytes}
	}
	m.InlineUsed = len(m.Inline)
	m.ParamsMembers = message.ObjectFields{Members: m.Inline[:], Object: true, Read: true, Text: judgetest.TextOf([]byte(`{}`), true)}
	m.ResultMembers = m.ParamsMembers
	m.ParamsMetaMembers, m.ResultMetaMembers = m.Inline[:], m.Inline[:]
	m.ParamsMetaDone, m.ResultMetaDone = true, true
	m.InputRequiredHint, m.RetryHint = message.FlagYes, message.FlagYes
	m.Content = message.DecodedContent{Raw: poisonedBytes, IsArray: true, Done: true}
	m.Content.Room[0] = message.ContentItem{Type: "poisoned", Resource: &message.ResourceContents{}}
	m.Content.Items = m.Content.Room[:]
}

// poisonTurn poisons a message whose turn ended and has the store hand out
// a poisoned Msg in its place from then on: whatever still reads m reads
// garbage for the rest of the trace, and a field the store does not clear
// before reuse shows in the next message.
func poisonTurn(st *message.MsgStore, m *message.Msg) {
	poison(m)
	for i, held := range st.Msgs {
		if held == m {
			st.Msgs[i] = &message.Msg{}
			poison(st.Msgs[i])
		}
	}
}

// poisoned is opts with every Msg poisoned once its turn is over.
func poisoned(opts engine.Options) engine.Options {
	opts.AfterTurn = poisonTurn
	return opts
}

// Every corpus trace, judged with each Msg poisoned after its turn, gives
// its golden report, and the very report it gives without poisoning.
func TestCorpusPoisoned(t *testing.T) {
	for _, ct := range judgetest.LoadCorpus(t) {
		t.Run(ct.Dir+"/"+ct.Name, func(t *testing.T) {
			want := reportJSON(t, judgeTrace(t, ct))
			rep := judgeTraceWith(t, ct, poisoned(engine.Options{Revisions: ct.Revisions, Party: ct.Party}))
			checkGolden(t, ct, rep)
			if got := reportJSON(t, rep); !bytes.Equal(got, want) {
				t.Errorf("the report differs when each Msg is poisoned after its turn:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// FuzzJudgePoisoned holds the judge's report on any trace, under each
// revision, to the one it gives with each Msg poisoned after its turn.
func FuzzJudgePoisoned(f *testing.F) {
	addCorpusSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, revs := range [][]string{nil, {"2025-11-25"}, {"2026-07-28"}} {
			want := reportJSON(t, judgeBytes(data, engine.Options{Revisions: revs}))
			rep := judgeBytes(data, poisoned(engine.Options{Revisions: revs}))
			if got := reportJSON(t, rep); !bytes.Equal(got, want) {
				t.Fatalf("revisions %v: the report differs when each Msg is poisoned after its turn:\n got %s\nwant %s", revs, got, want)
			}
		}
	})
}

// A kept copy answers as the message did, once the Msg that carried it is
// poisoned: it shares none of its storage.
func TestKeptMsgOutlivesItsTurn(t *testing.T) {
	ev := &trace.Event{Kind: trace.KindMessage, Line: 3,
		Payload: []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":1,"b":2,"c":3,"_meta":{"k":"v","progressToken":7}}}`)}
	m := message.ParseMessages(nil, ev)[0]
	m.ParamsMeta() // fill the memo the copy must not share
	k := m.Kept()
	poison(m)
	if k.Method != "initialize" || k.IDKey != "n:1" || k.Event.Line != ev.Line {
		t.Fatalf("kept copy lost its message: %q %q", k.Method, k.IDKey)
	}
	if &k.Event.Payload[0] == &ev.Payload[0] || &k.Params[0] == &ev.Payload[bytes.Index(ev.Payload, []byte(`{"a"`))] {
		t.Error("kept copy holds the reader's bytes, not a copy of its own")
	}
	if got := string(k.ParamsField("b")); got != "2" {
		t.Errorf("ParamsField(b) = %q, want 2", got)
	}
	if got := string(k.ParamsMeta().Get("progressToken")); got != "7" {
		t.Errorf("ParamsMeta().get(progressToken) = %q, want 7", got)
	}
}

// A reset Msg is as new, but for the rooms its memo lends, which are
// written before they are read.
func TestResetMsgIsAsNew(t *testing.T) {
	m := &message.Msg{}
	poison(m)
	m.Reset()
	m.Inline, m.Content.Room = [message.InlineMembers]message.Member{}, [1]message.ContentItem{}
	if !reflect.DeepEqual(*m, message.Msg{}) {
		t.Errorf("reset left %+v", *m)
	}
}
