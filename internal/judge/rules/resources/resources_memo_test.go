package resources

import (
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/judgetest"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// readResultTexts are resources/read results: plain, several contents,
// blobs, escapes, input_required, ones the decoder refuses, and near
// copies of each other.
var readResultTexts = []string{
	`{"contents":[{"uri":"notes://n4","mimeType":"text/plain","text":"Note 4"}]}`,
	`{"contents":[{"uri":"notes://n4","mimeType":"text/plain","text":"Note 5"}]}`,
	`{"contents":[{"uri":"notes://n\u0034","blob":"aGk="},{"uri":"x:y","blob":"not base64!"}]}`,
	`{"contents":[]}`,
	`{"resultType":"input_required","inputRequests":{}}`,
	`{"contents":[{"uri":1}]}`,
	`{"contents":{"uri":"a:b"}}`,
	`{"contents":[{"uri":"a:b"}],"contents":[{"uri":"c:d"}]}`,
	`{"contents":[{"URI":"a:b","Blob":"aGk="}]}`,
	`null`,
	`{"contents":[{"uri":"a:b"}]`,
}

// contentsFresh is a read's contents and completeness as read() took them
// before reads were remembered.
func contentsFresh(result []byte) ([]message.ResourceContents, bool) {
	res, ok := ResourcesRead(&message.Msg{Kind: message.KindResult, Result: result}, nil)
	return res.Contents, ok && res.ResultType != "input_required"
}

// checkContentsRead reads results in turn, each as a read of uri, with one
// rule, and holds what each gives to a fresh read of it.
func checkContentsRead(t *testing.T, r *resourcesRule, uri string, results ...[]byte) {
	t.Helper()
	for _, result := range results {
		m := &message.Msg{Kind: message.KindResult, Result: result}
		m.ResultMembers.Text = judgetest.TextOf(m.Result, true)
		got, gotOK := r.contentsRead(m, uri, nil)
		want, wantOK := contentsFresh(result)
		if gotOK != wantOK || gotOK && !sameJudgedContents(got, want) {
			t.Errorf("read of %s answered %s: got %v %v, want %v %v", uri, result, got, gotOK, want, wantOK)
		}
	}
}

// sameJudgedContents compares the members read() judges: uri and blob.
func sameJudgedContents(a, b []message.ResourceContents) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].URI != b[i].URI || a[i].Blob != b[i].Blob {
			return false
		}
	}
	return true
}

// A remembered read answers as a fresh one, for a result repeated, changed
// and repeated again, under the same and under other URIs.
func TestContentsReadMatchesAFreshRead(t *testing.T) {
	r := newResourcesRule().(*resourcesRule)
	for _, a := range readResultTexts {
		for _, b := range readResultTexts {
			checkContentsRead(t, r, "notes://n4", []byte(a), []byte(a), []byte(b), []byte(a), []byte(b))
			checkContentsRead(t, r, "notes://n5", []byte(b), []byte(a))
		}
	}
}

// Past maxReadMemos URIs the memos are forgotten and built again.
func TestContentsReadForgetsPastItsBound(t *testing.T) {
	r := newResourcesRule().(*resourcesRule)
	result := []byte(readResultTexts[0])
	for i := range 3 * maxReadMemos {
		checkContentsRead(t, r, "notes://n"+string(rune('a'+i%26))+string(rune('a'+i/26)), result)
		if len(r.memos) > maxReadMemos {
			t.Fatalf("%d reads remembered, bound %d", len(r.memos), maxReadMemos)
		}
	}
}

func FuzzContentsRead(f *testing.F) {
	for _, a := range readResultTexts[:3] {
		f.Add([]byte(a), []byte(readResultTexts[2]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		r := newResourcesRule().(*resourcesRule)
		checkContentsRead(t, r, "u:1", a, b, a, b, b)
	})
}
