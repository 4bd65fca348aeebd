package listing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/judge/schemas"
)

// listResult makes a tools/list result answering a request with cursor.
func listResult(cursor *string, result string) *message.Msg {
	params := json.RawMessage(`{}`)
	if cursor != nil {
		params, _ = json.Marshal(map[string]string{"cursor": *cursor})
	}
	return &message.Msg{Kind: message.KindResult, Result: json.RawMessage(result), Request: &message.Request{Method: "tools/list", Params: params}}
}

func TestPagedListJoinsPagesIntoWholeListings(t *testing.T) {
	l := NewPagedList("tools")
	next := "c2"
	p, ok := l.Add(listResult(nil, `{"tools":[{"name":"a"}],"nextCursor":"c2"}`))
	if !ok || p.Complete || p.Next != "c2" {
		t.Fatalf("first page: %+v", p)
	}
	p, _ = l.Add(listResult(&next, `{"tools":[{"name":"b"}]}`))
	if !p.Complete || len(p.all) != 2 {
		t.Fatalf("last page: complete=%v, %d items", p.Complete, len(p.all))
	}
	again, _ := l.Add(listResult(&next, `{"tools":[{"name":"c"}]}`))
	if got := ItemKeys(again.all, "name"); len(got) != 2 || got[1] != "c" {
		t.Errorf("a re-fetched page shares its prefix, not the earlier page: %v", got)
	}
	stranger := "from-another-session"
	p, _ = l.Add(listResult(&stranger, `{"tools":[{"name":"d"}]}`))
	if p.Complete {
		t.Error("a listing whose first pages were never seen counts as whole")
	}
	if _, ok := l.Add(listResult(nil, `{"prompts":[]}`)); ok {
		t.Error("a result without the member counts as a page")
	}
}

func TestPagedListForgetsTheOldestOpenListing(t *testing.T) {
	l := NewPagedList("tools")
	for i := 0; i <= MaxOpenListings; i++ {
		l.Add(listResult(nil, fmt.Sprintf(`{"tools":[],"nextCursor":"c%d"}`, i)))
	}
	if len(l.open) != MaxOpenListings || len(l.cursors) != MaxOpenListings {
		t.Errorf("%d open listings, %d cursors; want %d", len(l.open), len(l.cursors), MaxOpenListings)
	}
}

func TestWithoutNullsReadsNullArgumentsAsAbsent(t *testing.T) {
	for in, want := range map[string]string{
		``:                         `{}`,
		`null`:                     `{}`,
		`{"a":null,"b":1}`:         `{"b":1}`,
		`{"o":{"x":null,"y":"s"}}`: `{"o":{"y":"s"}}`,
		`{"list":[null,1]}`:        `{"list":[null,1]}`,
		`"not an object"`:          `"not an object"`,
	} {
		var raw json.RawMessage
		if in != "" {
			raw = json.RawMessage(in)
		}
		if got := string(schemas.WithoutNulls(raw)); got != want {
			t.Errorf("withoutNulls(%s) = %s, want %s", in, got, want)
		}
	}
}

// A result repeated to the byte has its items found in the new text as
// arrayItems finds them there, and a result that differs, or one too long
// to keep a copy of, is read anew.
func TestPagedListFindsTheItemsOfARepeatedResultInTheNewText(t *testing.T) {
	l := NewPagedList("tools")
	long := `{"tools":[` + strings.Repeat(`{"name":"a"},`, engine.MaxSameListing/10) + `2]}`
	for _, text := range []string{
		`{"tools":[{"name":"a"}, {"name":"b]"} ,3]}`, long, `{"tools":[{"name":"a"}, {"name":"b]"} ,3]}`,
		`{"tools": [ ] ,"nextCursor":"c"}`, `{"tools": [ ] ,"nextCursor":"c"}`, `{"tools":[1,2}`, `{"tools":[1,2}`,
		`{"tools":[{"name":"a"}, {"name":"b]"} ,3]}`, ` {"tools":[{"name":"a"}, {"name":"b]"} ,3]}`,
	} {
		for range 2 {
			m := listResult(nil, text) // new memory, as each message has its own
			got, gotNext, gotOK := l.read(m)
			want, wantOK := arrayItems(m.ResultMembers.Checked(m.ResultField("tools")))
			wantNext, _ := m.ResultString("nextCursor")
			if gotOK != wantOK || gotNext != wantNext || len(got) != len(want) {
				t.Fatalf("%s: got %q %q %v, want %q %q %v", text, got, gotNext, gotOK, want, wantNext, wantOK)
			}
			for i := range want {
				if &got[i][0] != &want[i][0] || len(got[i]) != len(want[i]) || cap(got[i]) != cap(want[i]) {
					t.Errorf("%s: item %d is %q, not the new text's %q", text, i, got[i], want[i])
				}
			}
		}
	}
}

// FuzzPagedListRead holds the reading of list results, repeated or not, to
// what reading each afresh finds: the same items, cut from the result's own
// text, and the same nextCursor.
func FuzzPagedListRead(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a"},{"name":"b"}]}`), []byte(`{"tools":[{"name":"a"}],"nextCursor":"c"}`))
	f.Add([]byte(`{"tools":[1, [2,{"x":"]"}] ,"\""]}`), []byte(`{"tools":null}`))
	f.Add([]byte(`{"tools":[1,2],"tools":[3]}`), []byte(` {"tools" : [ ] } `))
	f.Add([]byte(`{"t\u006fols":[1],"nextCursor":"\u0063"}`), []byte(`[{"tools":[1]}]`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		l := NewPagedList("tools")
		for _, text := range [][]byte{a, a, b, a, b, b} {
			m := &message.Msg{Kind: message.KindResult, Result: bytes.Clone(text)}
			m.ResultMembers.Text = judgetest.TextOf(m.Result, true)
			items, next, ok := l.read(m)
			fresh := &message.Msg{Kind: message.KindResult, Result: m.Result}
			fresh.ResultMembers.Text = m.ResultMembers.Text
			want, wantOK := arrayItems(fresh.ResultMembers.Checked(fresh.ResultField("tools")))
			wantNext := ""
			if wantOK {
				wantNext, _ = fresh.ResultString("nextCursor")
			}
			if ok != wantOK || next != wantNext || len(items) != len(want) {
				t.Fatalf("%q: got %q %q %v, want %q %q %v", text, items, next, ok, want, wantNext, wantOK)
			}
			for i := range want {
				if len(want[i]) > 0 && &items[i][0] != &want[i][0] || len(items[i]) != len(want[i]) || cap(items[i]) != cap(want[i]) {
					t.Fatalf("%q: item %d is %q, not the text's own %q", text, i, items[i], want[i])
				}
			}
		}
	})
}
