package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/segmentio/encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/jsonrpc"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// FuzzDecodeFast holds the fast path to the general decoder: a line it
// takes must decode to the very event the general decoder makes of it.
func FuzzDecodeFast(f *testing.F) {
	for _, line := range bytes.Split([]byte(okLines), []byte("\n")) {
		f.Add(line)
	}
	f.Add([]byte(`{"seq":3,"direction":"server-to-client","transport":"streamable-http","kind":"message","payload":null,"exchange":-2,"stream":"post:1","session":"a\u00e9\n","mono_ns":null,"Seq":4}`))
	f.Add([]byte(`{"seq":3,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"a":[1]},"x":{"seq":"no"}} `))
	f.Add([]byte(`{"seq":3,"direction":"server-to-client","transport":"streamable-http","kind":"message","payload":null,"exchange":-2,"stream":"post:1","session":"a\u00e9\n","mono_ns":null}`))
	f.Add([]byte("{\"seq\":1,\"direction\":\"client-to-server\",\"transport\":\"stdio\",\"kind\":\"http\",\"session\":\"\xff\xc3\xa9\",\"event\":null}"))
	f.Add([]byte("{\"headers\":{\"\x89\":\"\"}}"))
	// A null leaves a field that cannot hold it as it was.
	f.Add([]byte(`{"seq":null,"direction":"client-to-server","transport":"stdio","kind":"http"}`))
	f.Add([]byte(`{"seq":1,"seq":null,"direction":"client-to-server","transport":"stdio","kind":"http","session":"a","session":null,"SSE":null,"x":null}`))
	f.Add([]byte(`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"http","sse":{"event":"a","event":null,"retry":null},"raw":null,"exit_code":null}`))
	for _, line := range trickyLines {
		f.Add([]byte(line))
	}
	paths, _ := filepath.Glob(filepath.Join(repoRoot(f), "corpus", "*", "*.jsonl"))
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		for _, line := range bytes.Split(b, []byte("\n")) {
			if len(line) > 0 && line[0] == '{' {
				f.Add(line)
			}
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkFastPath(t, "decodeFast", decodeFast, line)
		checkFastPath(t, "decodeLine", decodeLineNoting, line)
	})
}

// checkFastPath holds one fast path to the general decoder on one line.
func checkFastPath(t *testing.T, name string, decode func([]byte, *Event) bool, line []byte) {
	t.Helper()
	fast := Event{Seq: -1}
	if !decode(bytes.Clone(line), &fast) {
		return
	}
	general := Event{Seq: -1}
	rest, err := json.Parse(bytes.Clone(line), &general, json.ZeroCopy)
	if err != nil || len(bytes.TrimSpace(rest)) > 0 {
		t.Fatalf("%s took %q, which the general decoder refuses: %v", name, line, err)
	}
	checkRPCMembers(t, line, &fast)
	fast.rpc = jsonrpc.Note{} // the general decoder records none
	if !reflect.DeepEqual(fast, general) {
		t.Fatalf("%s %q:\nfast    %+v\ngeneral %+v", name, line, fast, general)
	}
}

// checkRPCMembers holds the JSON-RPC members the fast path recorded to a
// scan of the payload after the fact.
func checkRPCMembers(t *testing.T, line []byte, ev *Event) {
	ev.asRead = rawjson.Scanned(ev.Payload) // as the reader marks it
	defer func() { ev.asRead = rawjson.Checked{} }()
	var got jsonrpc.Members
	note, ok := ev.JSONRPC()
	if ok {
		got, ok = note.Members(ev.Payload)
	}
	if ok != (rawjson.Kind(ev.Payload) == '{') {
		t.Fatalf("%q: members recorded %v for payload %q", line, ok, ev.Payload)
	}
	if !ok {
		return
	}
	var want jsonrpc.Members
	want.Scan(rawjson.Members(ev.Payload))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: recorded members %q, a scan finds %q", line, got, want)
	}
	checkMemberBounds(t, line, ev, got.Params)
	checkMemberBounds(t, line, ev, got.Result)
}

// checkMemberBounds holds the members of obj that the fast path noted, if
// it did, to a scan of obj after the fact (which FuzzMemberBounds holds to
// the member iterator).
func checkMemberBounds(t *testing.T, line []byte, ev *Event, obj []byte) {
	note, ok := ev.JSONRPC()
	if !ok {
		return
	}
	noted, ok := note.MemberBounds(ev.Payload, obj)
	if !ok {
		return
	}
	scanned, _, plain, valid := rawjson.MemberBounds(nil, obj, 0, 0, 0)
	if !valid || !plain || !slices.Equal(noted, scanned) {
		t.Fatalf("%q: noted members %v, a scan of %q finds %v", line, noted, obj, scanned)
	}
}

// The recorders' own lines take the fast path, and so do lines with null
// and escaped values.
func TestRecordedLinesTakeTheFastPath(t *testing.T) {
	lines := append(bytes.Split([]byte(okLines), []byte("\n"))[:2],
		[]byte(`{"seq":3,"direction":"server-to-client","transport":"streamable-http","kind":"message","payload":null,"exchange":-2,"stream":"post:1","session":"a\u00e9\n","mono_ns":null}`))
	for _, line := range lines {
		if ev := (Event{Seq: -1}); !decodeFast(line, &ev) {
			t.Errorf("%s takes the general path", line)
		}
	}
}
