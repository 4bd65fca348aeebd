package judge

import (
	"encoding/base64"
	"encoding/json"
	"mime"
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
// of them (prompt messages hold one, tool results an array).
func contentItems(raw json.RawMessage) []contentItem {
	var many []contentItem
	if Decode(raw, &many) {
		return many
	}
	var one contentItem
	if Decode(raw, &one) {
		return []contentItem{one}
	}
	return nil
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
	out := contentItems(res.Content)
	for _, msg := range res.Messages {
		out = append(out, contentItems(msg.Content)...)
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
