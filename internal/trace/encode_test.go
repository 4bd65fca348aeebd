package trace

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// referenceLine is what encoding/json writes for ev, the line appendEvent
// must reproduce byte for byte.
func referenceLine(ev *Event) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(ev)
	return buf.Bytes(), err
}

// checkSameLine fails t unless appendEvent and encoding/json agree on ev:
// the same bytes, or both refusing it.
func checkSameLine(t *testing.T, ev *Event) {
	t.Helper()
	want, wantErr := referenceLine(ev)
	got, gotErr := appendEvent([]byte("left alone"), ev)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("appendEvent error %v, encoding/json error %v, for %+v", gotErr, wantErr, ev)
	}
	if wantErr == nil && !bytes.Equal(got, append([]byte("left alone"), want...)) {
		t.Fatalf("appendEvent wrote\n%s\nencoding/json wrote\n%s", got, want)
	}
}

func ptr[T any](v T) *T { return &v }

func TestAppendEventMatchesEncodingJSON(t *testing.T) {
	events := map[string]Event{
		"zero": {},
		"message": {Seq: 7, Direction: ClientToServer, Transport: Stdio, Kind: KindMessage,
			Payload: json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), Stream: "stdio", MonoNS: 12345},
		"payload with space": {Kind: KindMessage, Payload: json.RawMessage("{ \"a\" :\n[1, 2] ,\t\"b\":\"x y\" }")},
		"payload not json":   {Kind: KindMessage, Payload: json.RawMessage(`{"a":`)},
		"payload html":       {Payload: json.RawMessage(`{"a":"<b>&amp;\u2028"}`)},
		"raw":                {Raw: ptr("half a line \"quoted\" \\ \x00\x1f\x7f <>&\u2028\u2029 é \xff\xfe")},
		"raw empty":          {Raw: ptr("")},
		"raw_base64":         {RawBase64: "//4="},
		"http request": {Seq: 1, Direction: ClientToServer, Transport: StreamableHTTP, Kind: KindHTTP,
			Method: "POST", Path: "/mcp", Exchange: 3, Stream: "post:3", Session: "abc",
			Headers: map[string]string{"mcp-session-id": "abc", "accept": "application/json, text/event-stream", "content-type": "application/json", "authorization": "[redacted]"}},
		"http response": {Status: 202, Headers: map[string]string{}},
		"sse full":      {SSE: &SSEFrame{ID: ptr("e1"), Event: "message", Retry: ptr(int64(3000))}},
		"sse retry":     {SSE: &SSEFrame{Retry: ptr(int64(0))}},
		"sse empty id":  {SSE: &SSEFrame{ID: ptr("")}},
		"sse event":     {SSE: &SSEFrame{Event: "ping"}},
		"sse none":      {SSE: &SSEFrame{}},
		"exit":          {Kind: KindLifecycle, Event: ProcessExit, ExitCode: ptr(0), Signal: "", Reason: "r\n"},
		"exit negative": {ExitCode: ptr(-1), Signal: "SIGKILL", Seq: -3, MonoNS: -1, Exchange: -2, Status: -4},
	}
	for name, ev := range events {
		t.Run(name, func(t *testing.T) { checkSameLine(t, &ev) })
	}
}

// TestAppendEventWritesEveryField fills every field of an Event, so that a
// field added to the struct and not to appendEvent fails here.
func TestAppendEventWritesEveryField(t *testing.T) {
	var ev Event
	fill(reflect.ValueOf(&ev).Elem())
	ev.Payload = json.RawMessage(`{"x":1}`)
	checkSameLine(t, &ev)
}

// fill gives every settable field below v a value that is not its zero.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s")
	case reflect.Int, reflect.Int64:
		v.SetInt(9)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(reflect.ValueOf("k"), reflect.ValueOf("v"))
	case reflect.Slice:
		v.SetBytes([]byte("s"))
	}
}

// FuzzAppendEvent checks appendEvent against encoding/json on the bytes
// that come from the wire: message bodies, raw text, header values and SSE
// fields.
func FuzzAppendEvent(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), "raw", "application/json", "id-1", "message", int64(100))
	f.Add([]byte("[1, 2 ,{\"a\":\n\"\\u2028\"}]"), "\x00\xff\u2029", "a\"b\\c", "", "", int64(-1))
	f.Add([]byte(`{"half":`), "<&>", "\t", "\xe2\x80", "\n", int64(0))
	f.Fuzz(func(t *testing.T, body []byte, raw, header, id, event string, n int64) {
		message := Event{Seq: n, Direction: ServerToClient, Kind: KindMessage, MonoNS: n,
			Payload: body, SSE: &SSEFrame{ID: &id, Event: event, Retry: &n}}
		checkSameLine(t, &message)
		var set Event
		set.SetBody(body)
		checkSameLine(t, &set)
		http := Event{Kind: KindHTTP, Raw: &raw, Path: raw, Session: id,
			Headers: map[string]string{header: raw, id: event, "accept": header}}
		checkSameLine(t, &http)
	})
}

// TestAppendEventChecksAPayloadSetBodyDidNotMake: only the very payload
// SetBody compacted skips the scan; one put in its place after is checked.
func TestAppendEventChecksAPayloadSetBodyDidNotMake(t *testing.T) {
	for name, change := range map[string]func(*Event){
		"kept":      func(*Event) {},
		"replaced":  func(ev *Event) { ev.Payload = json.RawMessage(`{"a": [1, 2]}`) },
		"truncated": func(ev *Event) { ev.Payload = ev.Payload[:len(ev.Payload)-1] },
		"not json":  func(ev *Event) { ev.Payload = json.RawMessage(`{"a":`) },
	} {
		t.Run(name, func(t *testing.T) {
			var ev Event
			ev.SetBody([]byte(`{"jsonrpc":"2.0", "id":1}`))
			change(&ev)
			checkSameLine(t, &ev)
		})
	}
}
