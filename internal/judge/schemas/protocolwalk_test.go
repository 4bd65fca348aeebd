package schemas

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
	"unsafe"

	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// metaObjectsFresh is how _meta objects were listed before the finder kept
// its buffers: a walk of its own per message, which reads every object
// itself, the message's params or result too.
func metaObjectsFresh(m *message.Msg) []MetaObject {
	var out []MetaObject
	raw, root := MessageBody(m)
	text, ok := rawjson.Check(raw)
	if !message.MetaMemberName.In(raw) || !ok {
		return nil
	}
	w := walker{visit: func(key []byte, val json.RawMessage, at *WalkPath) bool {
		if string(key) == "_meta" && rawjson.Kind(val) == '{' {
			out = append(out, MetaObject{Path: at.String(), Members: message.SortMembers(message.AppendMembers(nil, val))})
		}
		return true
	}}
	w.path.b, w.text = []byte(root), text
	w.Value(text)
	return out
}

// One finder, used message after message, lists what a fresh walk of each
// message lists.
func TestMetaFinderMatchesAFreshWalk(t *testing.T) {
	bodies := []string{
		`{"_meta":{"progressToken":"p1","b":1,"a":2}}`,
		`{"_meta":{"a":1,"a":2,"\u0061":3}}`,
		`{"x":[{"_meta":{"k":1}},{"_meta":null},{"_meta":[1]}],"_meta":{}}`,
		`{"\u005fmeta":{"a":1},"_meta":{"z":1}}`,
		`{"arguments":{"_meta":{"hidden":1}},"y":{"_meta":{"seen":true,"_meta":{"deep":1}}}}`,
		`{"_meta":{"a":1}`,
		`{"_meta":"x"}`,
		`{"none":1}`,
		`{"_meta":{"c":1,"b":2,"a":3,"d":4,"e":5,"f":6}}`,
		`{"a":1,"b":2,"c":3,"d":4,"_meta":{"x":1,"y":{"_meta":{"z":1}}},"e":{"_meta":{"w":2}}}`,
		`{"_meta":{"a":1},"x":{"_meta":{"a":1}},"_meta":{"b":2}}`,
		`[{"_meta":{"a":1}}]`,
		` {"_meta" : {"a" :1 } } `,
		// The root's _meta alone, or with the needle elsewhere: in a value,
		// an opaque member, an escaped key, or a second root key.
		`{"name":"add","arguments":{"a":3},"_meta":{"progressToken":"p3"}}`,
		`{"name":"_meta","_meta":{"a":1}}`,
		`{"arguments":{"_meta":{"b":1}},"_meta":{"a":1}}`,
		`{"_meta":{"a":1},"arguments":{"_meta":{"b":1}}}`,
		`{"_meta":{"a":1},"x":"\"_meta\""}`,
		`{"\u005fmeta":{"b":1},"_meta":{"a":1}}`,
		`{"_meta":{"a":1},"_meta" :{"b":2}}`,
		`{"_meta"	:
 {"a":1}}`,
		`{"x_meta":{"a":1},"_meta":{"b":1}}`,
		`{"_meta":{"_meta":{"a":1}}}`,
		`{"_meta":{}}`,
	}
	var f MetaFinder
	for _, body := range bodies {
		checkMetaFinder(t, &f, []byte(body))
	}
}

// checkMetaFinder holds the finder to a fresh walk of body as a request's
// params and as a result, whether or not the trace reader vouched for it
// and whether or not another rule read its members (and their _meta) first.
func checkMetaFinder(t *testing.T, f *MetaFinder, body []byte) {
	t.Helper()
	for _, kind := range []message.MsgKind{message.KindRequest, message.KindResult} {
		want := metaObjectsFresh(&message.Msg{Kind: kind, Params: body, Result: body})
		for _, vouched := range []bool{false, json.Valid(body)} {
			for _, readFirst := range []bool{false, true} {
				m := &message.Msg{Kind: kind, Params: body, Result: body}
				m.ParamsMembers.Text, m.ResultMembers.Text = judgetest.TextOf(body, vouched), judgetest.TextOf(body, vouched)
				if readFirst {
					m.ParamsMeta()
					m.ResultMeta()
				}
				if got := f.Objects(m); !sameMetaObjects(got, want) {
					t.Errorf("%s %s (vouched %v, read first %v): got %v, want %v", kind, body, vouched, readFirst, got, want)
				}
				f.Release()
			}
		}
	}
}

func FuzzMetaFinder(f *testing.F) {
	for _, body := range []string{`{"_meta":{"progressToken":"p1","b":1,"a":2}}`, `{"a":{"_meta":{"b":1}},"_meta":{"c":2},"_meta":{"d":3}}`,
		`{"\u005fmeta":{"a":1},"_meta":{"z":1}}`, `[{"_meta":{"k":1}}]`} {
		f.Add([]byte(body))
	}
	var finder MetaFinder
	f.Fuzz(func(t *testing.T, body []byte) {
		checkMetaFinder(t, &finder, body)
	})
}

// sameMetaObjects compares two lists by path and members; an empty members
// list equals another whether or not it is nil.
func sameMetaObjects(a, b []MetaObject) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || len(a[i].Members) != len(b[i].Members) {
			return false
		}
		if len(a[i].Members) > 0 && !reflect.DeepEqual(a[i].Members, b[i].Members) {
			return false
		}
	}
	return true
}

// A spelling is always the bytes asked about, before and after the
// spellings are forgotten, and one spelling is shared while remembered.
func TestSpellingsSpellTheBytes(t *testing.T) {
	var sp spellings
	for i := range 3 * maxSpellings {
		b := []byte("params._meta.k" + strconv.Itoa(i%(maxSpellings+7)))
		if got := sp.Of(b); got != string(b) {
			t.Fatalf("%s spelled %q", b, got)
		}
		if len(sp) > maxSpellings {
			t.Fatalf("%d spellings held, bound %d", len(sp), maxSpellings)
		}
	}
	a, b := sp.Of([]byte("progressToken")), sp.Of([]byte("progressToken"))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Errorf("one spelling built twice")
	}
}
