package judge

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/judge/rules/resources"
	"github.com/mcpverdict/mcpverdict/internal/judge/rules/tools"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// The structs the readers replace, decoded as the rules decoded them before.
// The decoder matches a member to a field by its name, case folded, as it
// does to a tag: the names serve as the members' names.
type (
	decodedResource struct{ URI, MimeType, Text, Blob *string }
	decodedBlock    struct {
		Type                      string
		Text, Data, MimeType, URI *string
		Resource                  *decodedResource
	}
	decodedRead struct {
		ResultType string            `json:"resultType"`
		Contents   []decodedResource `json:"contents"`
	}
)

// Objects whose members are spelled, repeated, nulled or typed in the ways
// a reader must read exactly as the decoder does.
var trickyObjects = []string{
	`null`, `{}`, `[]`, `"x"`, `1`, `true`,
	`{"type":"text","text":"hi"}`,
	`{"type":"text","text":"{\"sum\":3}"}`,
	`{"ty\u0070e":"text","t\u0065xt":"a\u00e9\ud83d\ude00b"}`,
	`{"type":"text","type":null,"text":"a","text":null}`,
	`{"type":null,"text":null,"uri":null,"resource":null}`,
	`{"Type":"text"}`, `{"TEXT":"a"}`, `{"mimetype":"a/b"}`, `{"ſtructuredContent":{}}`, `{"Uri":"x:y"}`,
	`{"type":1}`, `{"text":2}`, `{"text":{}}`, `{"type":[]}`, `{"uri":true}`,
	`{"type":"a\u0000b","text":"\u00e9","data":"\ud800","mimeType":"\/\b\f\n\r\t"}`,
	"{\"text\":\"\xff\xfe\",\"type\":\"\x7f\"}",
	`{"resource":{"uri":"a:b","blob":"aGk="},"resource":{"text":"t"}}`,
	`{"resource":{"uri":"a:b"},"resource":null,"resource":{"blob":"x"}}`,
	`{"resource":"x"}`, `{"resource":[]}`, `{"resource":{"uri":1}}`, `{"resource":{"URI":"a:b"}}`,
	`{"resultType":"input_required","contents":[{"uri":"a:b","text":"t"},null]}`,
	`{"resultType":null,"contents":null}`, `{"contents":[]}`, `{"contents":{}}`, `{"contents":[1]}`,
	`{"contents":[{"uri":"a:b","blob":"x"}],"contents":[{"uri":"c:d"}]}`,
	`{"contents":[{"uri":"a:b","uri":null}]}`, `{"Contents":[]}`, `{"resultType":5}`,
	`{"content":[{"type":"text","text":"{}"}],"structuredContent":{},"isError":false}`,
	`{"content":null,"structuredContent":null,"isError":null}`, `{"content":1,"isError":true,"isError":null}`,
	`{"isError":"yes"}`, `{"isError":1}`, `{"IsError":true}`, `{"resultType":"x","resultType":null}`,
	`{"content":[{"type":"text"},null,{"type":"image","data":"aGk=","mimeType":"image/png"}]}`,
	`{"content":{"type":"text","text":"one"}}`, `{"content":[1]}`, `{"content":[{"type":1}]}`, `{"content":"x"}`,
	`{"messages":[{"content":{"type":"text","text":"a"}}],"content":[]}`, `{"messages":null}`,
	`{"content":[{"type":"res\u006furce","resource":{"uri":"a:b"}},{"type":"resource_link","uri":"c:d"}]}`,
	`{"content":[{"type":"res\u006furce_link","uri":"c:d"}]}`,
	`{"name":"add","arguments":{"a":1}}`, `{"name":"a","name":null,"arguments":null}`, `{"name":1,"arguments":{}}`,
	`{"arguments":{},"name":1}`, `{"Name":"a"}`, `{"uri":"a:b","uri":null}`, `{"uri":"a:b","uri":1}`,
	` { "uri" : "a:b" , "x" : [ 1 , { } ] } `,
	// Arrays of blocks spaced, emptied, nulled and mixed, which the reader
	// of a vouched array steps through by itself.
	` [ ] `, "[\t\r\n{\"type\":\"text\"}\n,\r\n\tnull , { } ]", `[null]`, `[null,null,{"type":"a"}]`, `[{},"x"]`, `[{},1]`,
	`[{"type":"a"},[]]`, `[{"type":"a"},{"type":2}]`, `[{"Type":"a"}]`, `[ {"type":"a"} , {"text":"b"} ]`,
	`{"contents":[ {"uri":"a:b"} , null , {"blob":"x"} ]}`, `{"contents":[{"uri":"a:b"},true]}`, `{"contents": [ ] }`,
	`{"content":[ {"type":"resource","resource":{"uri":"a:b","blob":"x"}} , {"type":"text","text":"t"} ]}`,
}

func optPtr(o message.OptString) *string { return o.Ptr() }

func textPtr(t message.RawText) *string {
	if !t.IsSet() {
		return nil
	}
	s := t.Value()
	return &s
}

func asDecodedResource(r *message.ResourceContents) *decodedResource {
	if r == nil {
		return nil
	}
	return &decodedResource{URI: optPtr(r.URI), MimeType: optPtr(r.MimeType), Text: optPtr(r.Text), Blob: optPtr(r.Blob)}
}

func asDecodedBlocks(items []message.ContentItem) []decodedBlock {
	var out []decodedBlock
	for _, b := range items {
		out = append(out, decodedBlock{Type: b.Type, Text: textPtr(b.Text), Data: optPtr(b.Data),
			MimeType: optPtr(b.MimeType), URI: optPtr(b.URI), Resource: asDecodedResource(b.Resource)})
	}
	return out
}

// sameAsDecoded compares what a reader gave with what decoding gave,
// nil and empty slices alike.
func sameAsDecoded(got, want any) bool {
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return emptyAsNull(g) == emptyAsNull(w)
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func emptyAsNull(b []byte) string {
	if string(b) == "[]" {
		return "null"
	}
	return string(b)
}

// trickyValues are the tricky objects, and each as every value of an
// array, of a content member and of a contents member.
func trickyValues() []string {
	var out []string
	for _, o := range append(trickyObjects, trickyStrings...) {
		out = append(out, o, `[`+o+`]`, `[`+o+`,`+o+`]`, `{"content":[`+o+`]}`, `{"contents":[`+o+`]}`, `{"content":`+o+`}`)
	}
	return out
}

func TestRawReadersDecodeAsTheDecoderDid(t *testing.T) {
	for _, v := range trickyValues() {
		checkRawReaders(t, []byte(v))
	}
}

func FuzzRawReaders(f *testing.F) {
	for _, v := range append(trickyObjects, trickyStrings...) {
		f.Add([]byte(v))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if rawjson.Valid(b) {
			checkRawReaders(t, rawjson.TrimSpace(b))
		}
	})
}

func checkRawReaders(t *testing.T, raw []byte) {
	t.Helper()
	for _, vouched := range []bool{false, true} {
		checkContentItems(t, raw, vouched)
		checkResultContent(t, raw, vouched)
		// The readers of a message's params and result read them afresh,
		// or from their members when a rule read those first.
		for _, membersRead := range []bool{false, true} {
			checkCallResult(t, raw, vouched, membersRead)
			checkReadContents(t, raw, vouched, membersRead)
			checkParams(t, raw, vouched, membersRead)
		}
	}
}

// readFirst is the members of raw, read first when membersRead is set.
func readFirst(raw []byte, vouched, membersRead bool) message.ObjectFields {
	f := message.ObjectFields{Text: judgetest.TextOf(raw, vouched)}
	if membersRead {
		f.Load(raw)
	}
	return f
}

func checkContentItems(t *testing.T, raw []byte, vouched bool) {
	t.Helper()
	items, isArray := message.ContentItems((&message.ObjectFields{Text: judgetest.TextOf(raw, vouched)}).Checked(raw))
	for _, b := range items {
		if b.Text.IsSet() {
			checkTextEquals(t, b.Text)
		}
	}
	want, wantArray := message.DecodeBlocks[decodedBlock](raw)
	if isArray != wantArray || !sameAsDecoded(asDecodedBlocks(items), want) {
		t.Errorf("contentItems(%s) = %s, %v; decoding gave %s, %v", raw, jsonOf(asDecodedBlocks(items)), isArray, jsonOf(want), wantArray)
	}
}

// resultMsg is a response whose result is raw.
func resultMsg(raw []byte, vouched bool) *message.Msg {
	m := &message.Msg{Result: raw}
	m.ResultMembers.Text = judgetest.TextOf(raw, vouched)
	return m
}

// readResultMsg is resultMsg whose result members were read first when
// membersRead is set.
func readResultMsg(raw []byte, vouched, membersRead bool) *message.Msg {
	m := &message.Msg{Result: raw}
	m.ResultMembers = readFirst(raw, vouched, membersRead)
	return m
}

func checkCallResult(t *testing.T, raw []byte, vouched, membersRead bool) {
	t.Helper()
	got, ok := tools.ToolResult(readResultMsg(raw, vouched, membersRead))
	var want tools.CallResult
	wantOK := message.Decode(raw, &want)
	if ok != wantOK || (ok && !reflect.DeepEqual(got, want)) {
		t.Errorf("toolResult(%s) = %+v, %v; decoding gave %+v, %v", raw, got, ok, want, wantOK)
	}
}

func checkReadContents(t *testing.T, raw []byte, vouched, membersRead bool) {
	t.Helper()
	got, ok := resources.ResourcesRead(readResultMsg(raw, vouched, membersRead), nil)
	var want decodedRead
	wantOK := message.Decode(raw, &want)
	var gotContents []*decodedResource
	for i := range got.Contents {
		gotContents = append(gotContents, asDecodedResource(&got.Contents[i]))
	}
	var wantContents []*decodedResource
	for i := range want.Contents {
		wantContents = append(wantContents, &want.Contents[i])
	}
	if ok != wantOK || (ok && (got.ResultType != want.ResultType || !sameAsDecoded(gotContents, wantContents))) {
		t.Errorf("resourcesRead(%s) = %s, %v; decoding gave %s, %v", raw, jsonOf(gotContents), ok, jsonOf(wantContents), wantOK)
	}
}

func checkParams(t *testing.T, raw []byte, vouched, membersRead bool) {
	t.Helper()
	var uri resources.URIParams
	f := readFirst(raw, vouched, membersRead)
	if message.Decode(raw, &uri); resources.ParamsURI(&f, raw) != uri.URI {
		t.Errorf("paramsURI(%s) = %q; decoding gave %q", raw, resources.ParamsURI(&f, raw), uri.URI)
	}
	r := &message.Request{Params: raw}
	r.ParamsMembers = readFirst(raw, vouched, membersRead)
	var want tools.CallParams
	if message.Decode(raw, &want); !reflect.DeepEqual(tools.RequestedCall(r), want) {
		t.Errorf("requestedCall(%s) = %+v; decoding gave %+v", raw, tools.RequestedCall(r), want)
	}
}

func checkResultContent(t *testing.T, raw []byte, vouched bool) {
	t.Helper()
	got := asDecodedBlocks(message.ResultContent(resultMsg(raw, vouched)))
	want := asDecodedBlocks(message.DecodedResultContent(&message.Msg{Result: raw}))
	if !sameAsDecoded(got, want) {
		t.Errorf("resultContent(%s) = %s; decoding gave %s", raw, jsonOf(got), jsonOf(want))
	}
	for _, b := range got {
		if (b.Type == "resource" || b.Type == "resource_link") && !resources.MayNameResource(raw) {
			t.Errorf("mayNameResource(%s) = false, but it holds a %s block", raw, b.Type)
		}
	}
}

// TestRawReadersReadThePlainCases keeps the common messages on the readers:
// falling back to decoding would still be right, only slower.
func TestRawReadersReadThePlainCases(t *testing.T) {
	if _, out := tools.ReadCallResult(&message.ObjectFields{}, []byte(`{"content":[{"type":"text","text":"{\"sum\":3}"}],"structuredContent":{"sum":3}}`)); out != message.ReadDecoded {
		t.Errorf("a tools/call result: %v", out)
	}
	if _, out := resources.ReadReadContents(&message.ObjectFields{}, []byte(`{"contents":[{"uri":"notes://n1","mimeType":"text/plain","text":"Note"}]}`), nil); out != message.ReadDecoded {
		t.Errorf("a resources/read result: %v", out)
	}
	if _, _, out := message.ReadContentItems(nil, judgetest.TextOf([]byte(`[{"type":"resource_link","uri":"a:b"},{"type":"resource","resource":{"uri":"a:b","blob":"aGk="}}]`), true)); out != message.ReadDecoded {
		t.Errorf("content blocks: %v", out)
	}
}

// Strings as written, with short escapes, with \u escapes, and with bytes
// that are not UTF-8 (a lone surrogate encoded, a stray byte).
var trickyStrings = []string{
	`{"text":"é","data":"é\n\"\\\/\b\f\r\t","uri":"é\u00e9","mimeType":"\\u0041","type":"\\"}`,
	"{\"text\":\"\xed\xa0\x80\\n\",\"type\":\"\xff\\\"\",\"data\":\"a\\\\\"}",
}

// checkTextEquals holds rawText.equals to comparing the decoded value.
func checkTextEquals(t *testing.T, text message.RawText) {
	t.Helper()
	v := text.Value()
	targets := []string{v, v + "x", "", `"` + v + `"`, string(text.Raw)}
	if v != "" {
		targets = append(targets, v[:len(v)-1], v[1:], "x"+v[1:])
	}
	for _, s := range targets {
		if text.Equals([]byte(s)) != (v == s) {
			t.Errorf("%s equals %q = %v, but its value is %q", text.Raw, s, !(v == s), v)
		}
	}
}

func TestRawTextEqualsItsValue(t *testing.T) {
	for _, raw := range []string{`""`, `"abc"`, `"{\"sum\":3}"`, `"a\\b\/c\n"`, `"\u0041\n"`, `"é\té"`, `"\\"`,
		"\"\xff\\n\"", "\"\xed\xa0\x80\"", `"\ud83d\ude00\""`, `"\"\"\""`} {
		checkTextEquals(t, message.RawText{Raw: []byte(raw)})
	}
}
