package judge

import (
	"encoding/base64"
	"encoding/json"
	"mime"
	"slices"
	"strconv"
	"strings"
)

// contentItem is a content item of a tool result or a prompt message, with
// the members the judge reads. Pointers tell an absent member from "".
type contentItem struct {
	Type     string            `json:"type"`
	Text     *string           `json:"text"`
	Data     *string           `json:"data"`
	MimeType *string           `json:"mimeType"`
	URI      *string           `json:"uri"`
	Resource *resourceContents `json:"resource"`
}

// resourceContents is an entry of a resources/read result, or the resource
// of an embedded resource block.
type resourceContents struct {
	URI      *string `json:"uri"`
	MimeType *string `json:"mimeType"`
	Text     *string `json:"text"`
	Blob     *string `json:"blob"`
}

// isBase64 reports whether s is base64 (RFC 4648, standard alphabet,
// padded or not).
func isBase64(s string) bool {
	if _, err := base64.StdEncoding.DecodeString(s); err == nil {
		return true
	}
	_, err := base64.RawStdEncoding.DecodeString(s)
	return err == nil
}

// mimeProblem says why s is not a MIME type ("type/subtype" with optional
// parameters), or "" when it is.
func mimeProblem(s *string) string {
	if s == nil {
		return "it has no mimeType"
	}
	mt, _, err := mime.ParseMediaType(*s)
	typ, sub, slash := strings.Cut(mt, "/")
	if err != nil || !slash || typ == "" || sub == "" {
		return "its mimeType " + quoteJSON(*s) + " is not a type/subtype MIME type"
	}
	return ""
}

// quoteJSON quotes s for a finding.
func quoteJSON(s string) string { return strconv.Quote(s) }

// preview shortens a value for a finding.
func preview(s string) string {
	if len(s) > 40 {
		return quoteJSON(s[:40]) + "..."
	}
	return quoteJSON(s)
}

// contentItems decodes a content member that holds one block or an array
// of them (prompt messages hold one, tool results an array); isArray is set
// when it held an array, or was null.
func contentItems(raw json.RawMessage) (items []contentItem, isArray bool) {
	var many []contentItem
	if Decode(raw, &many) {
		return many, true
	}
	var one contentItem
	if Decode(raw, &one) {
		return []contentItem{one}, false
	}
	return nil, false
}

// decodedContent is the content member of a message's result, decoded once:
// the tools, resources and prompts rules all read the blocks of a result.
type decodedContent struct {
	raw     json.RawMessage
	items   []contentItem
	isArray bool
	done    bool
}

// resultBlocks returns the blocks of raw, the content member of m's result,
// decoding them only the first time.
func (m *Msg) resultBlocks(raw json.RawMessage) ([]contentItem, bool) {
	c := &m.content
	if !c.done || !sameBytes(c.raw, raw) {
		c.items, c.isArray = contentItems(raw)
		c.raw, c.done = raw, true
	}
	return c.items, c.isArray
}

// resultContent returns the content blocks of a tools/call result or of
// the messages of a prompts/get result.
func resultContent(m *Msg) []contentItem {
	var res struct {
		Content  json.RawMessage `json:"content"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if !Decode(m.Result, &res) {
		return nil
	}
	own, _ := m.resultBlocks(res.Content)
	if len(res.Messages) == 0 {
		return own
	}
	out := slices.Clip(own) // the cached blocks stay as decoded
	for _, msg := range res.Messages {
		items, _ := contentItems(msg.Content)
		out = append(out, items...)
	}
	return out
}

// inputRequired reports whether a 2026-07-28 result asks for more input
// instead of answering.
func inputRequired(result json.RawMessage) bool {
	var r struct {
		ResultType string `json:"resultType"`
	}
	return Decode(result, &r) && r.ResultType == "input_required"
}
