package resources

import (
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// maxReadMemos bounds the URIs whose reads the resources rule remembers,
// all forgotten at once past it so that memory stays flat; a result is
// remembered only when it is short enough for a sameText to keep.
const maxReadMemos = 256

// readMemo is what the last resources/read result of a URI gave: a client
// reads the same resources again and again, and a server whose resource
// has not changed answers with the same bytes, which need not be read
// again to be judged again.
type readMemo struct {
	result engine.SameText
	// contents are its contents' uri and blob, the members judged; ok is
	// whether it was a complete read.
	contents []message.ResourceContents
	ok       bool
}

// contentsRead returns the contents of m's result, a read of uri, and
// whether it is a complete read (not input_required, nor one the decoder
// refuses); the contents it reads itself are appended to buf.
func (r *resourcesRule) contentsRead(m *message.Msg, uri string, buf []message.ResourceContents) ([]message.ResourceContents, bool) {
	if memo, ok := r.memos[uri]; ok && memo.result.Is(m.Result) {
		return memo.contents, memo.ok
	}
	res, ok := ResourcesRead(m, buf)
	ok = ok && res.ResultType != "input_required"
	r.remember(uri, m.Result, res.Contents, ok)
	return res.Contents, ok
}

// remember keeps what a read of uri gave, as copies: nothing of the
// message outlives its turn. The text of the last read of uri gives its
// room to the new one.
func (r *resourcesRule) remember(uri string, result []byte, contents []message.ResourceContents, ok bool) {
	memo, known := r.memos[uri]
	if !memo.result.Keep(result, engine.MaxSameText) {
		return
	}
	if !known && len(r.memos) >= maxReadMemos || r.memos == nil {
		r.memos = map[string]readMemo{}
	}
	memo.ok, memo.contents = ok, nil
	if ok {
		memo.contents = make([]message.ResourceContents, len(contents))
		for i, c := range contents {
			memo.contents[i].URI = message.OptString{Val: strings.Clone(c.URI.Val), Set: c.URI.Set}
			memo.contents[i].Blob = message.OptString{Val: strings.Clone(c.Blob.Val), Set: c.Blob.Set}
		}
	}
	r.memos[strings.Clone(uri)] = memo
}
