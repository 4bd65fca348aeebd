package wireschema

import (
	"reflect"
	"slices"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// fastSeeds are messages of every shape the judge meets, valid and not.
var fastSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{}},"clientInfo":{"name":"c","version":"1"}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]},"annotations":{"readOnlyHint":true}}]}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":3},"_meta":{"progressToken":"p3"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p3","progress":1,"total":2}}`,
	`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"5"},{"type":"image","data":"aGk=","mimeType":"image/png"}],"structuredContent":{"sum":5}}}`,
	`{"jsonrpc":"2.0","id":4,"result":{"contents":[{"uri":"a://b","blob":"AAAA"},{"uri":"a://c","text":"x"}]}}`,
	`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"bad"}}`,
	`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"debug","data":{"a":1}}}`,
	`{"jsonrpc":"2.0","id":"x","result":{}}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"image","data":"a b=","mimeType":"x"}]}}`,
	`{"jsonrpc":"2.0","id":7,"result":5}`,
	`{"jsonrpc":"2.0","id":8,"result":{"resultType":"input_required","task":{}}}`,
}

// FuzzFastFormNeverOverrulesTheLibrary holds every definition's fast form
// to the JSON Schema library it spares: whatever it proves valid the
// library finds valid, under every revision.
func FuzzFastFormNeverOverrulesTheLibrary(f *testing.F) {
	revs := slices.Sorted(func(yield func(string) bool) {
		for rev := range Pins {
			if !yield(rev) {
				return
			}
		}
	})
	validators := make([]*Validator, len(revs))
	libraryOnly := make([]*Validator, len(revs))
	defs := make([][]string, len(revs))
	for i, rev := range revs {
		validators[i] = load(f, rev)
		libraryOnly[i] = load(f, rev)
		libraryOnly[i].fast = nil
		for name := range validators[i].fast {
			defs[i] = append(defs[i], name)
		}
		slices.Sort(defs[i])
	}
	for i, seed := range fastSeeds {
		f.Add(uint8(i), uint16(i*7), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, rev uint8, def uint16, instance []byte) {
		v := validators[int(rev)%len(validators)]
		names := defs[int(rev)%len(validators)]
		checked, ok := rawjson.Check(instance)
		if !ok {
			return
		}
		holdsToTheLibrary(t, v, libraryOnly[int(rev)%len(validators)], instance, checked)
		for _, name := range []string{names[int(def)%len(names)], "JSONRPCMessage", v.resultResponse, "Result"} {
			if !provenByFastForm(v.fast[name], checked) {
				continue
			}
			inst, err := decode(instance)
			if err != nil {
				t.Fatalf("%s: not JSON to the library: %v", instance, err)
			}
			if problems, err := v.check(name, "", inst); err != nil || len(problems) > 0 {
				t.Fatalf("%s %s: fast form proves %s valid; the library finds %v %v", v.Revision, name, instance, problems, err)
			}
		}
	})
}

// The fast forms prove the messages a session is made of valid, and leave
// the broken ones to the library, which reports them.
func TestFastFormsDecideCommonMessages(t *testing.T) {
	v := load(t, "2025-11-25")
	requests := map[int]string{1: "initialize", 3: "tools/list", 6: "tools/call", 7: "resources/read", 10: "ping", 12: "tools/call"}
	invalid := map[int]bool{11: true, 12: true, 13: true, 14: true}
	for i, seed := range fastSeeds {
		m := messageOf(t, seed, requests[i])
		targets, n := v.targets(m, true)
		proven := true
		for _, tg := range targets[:n] {
			proven = proven && v.provenValid(tg, &provenTexts{})
		}
		problems, err := v.Validate(m)
		if err != nil {
			t.Fatal(err)
		}
		if proven == invalid[i] || (len(problems) > 0) != invalid[i] {
			t.Errorf("%s: proven %v, problems %v", seed, proven, problems)
		}
	}
}

func messageOf(t *testing.T, body, requestMethod string) Message {
	t.Helper()
	text, ok := rawjson.Check([]byte(body))
	if !ok {
		t.Fatalf("not JSON: %s", body)
	}
	m := Message{Body: text.Bytes(), Text: text, RequestMethod: requestMethod, Params: text.Member("params").Bytes()}
	method, _ := rawjson.Unquote(rawjson.Member(m.Body, "method"))
	m.Method = method
	switch {
	case rawjson.Member(m.Body, "error") != nil:
		m.Kind = Error
	case rawjson.Member(m.Body, "result") != nil:
		m.Kind = Result
	case rawjson.Member(m.Body, "id") != nil:
		m.Kind = Request
	default:
		m.Kind = Notification
	}
	return m
}

// provenByFastForm is what the fast form proves, whole or parted.
func provenByFastForm(f *fastForm, c rawjson.Checked) bool {
	if f == nil {
		return false
	}
	if f.whole.Valid(c, false) {
		return true
	}
	part := c.TrimSpace().Member(f.member)
	return f.shell != nil && part.Bytes() != nil && f.shell.ValidKnowing(c, part) && f.part.Valid(part, false)
}

// holdsToTheLibrary checks that the problems Validate and a Checker report
// for a message of every kind are those the library alone reports.
func holdsToTheLibrary(t *testing.T, v, libraryOnly *Validator, instance []byte, checked rawjson.Checked) {
	method, _ := rawjson.Unquote(checked.TrimSpace().Member("method").Bytes())
	for kind := Request; kind <= Any; kind++ {
		m := Message{Kind: kind, Method: method, RequestMethod: "tools/call", Body: instance, Text: checked,
			Params: checked.TrimSpace().Member("params").Bytes(), Result: checked.TrimSpace().Member("result").Bytes()}
		want, wantErr := libraryOnly.Validate(m)
		got, err := v.Validate(m)
		c := v.NewChecker()
		_, _ = c.Validate(m) // the second call answers from memory
		cached, cachedErr := c.Validate(m)
		if (err == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(cached, want) || (cachedErr == nil) != (wantErr == nil) {
			t.Fatalf("%s as kind %d: fast path %v %v, from memory %v, library %v %v", instance, kind, got, err, cached, want, wantErr)
		}
	}
}
