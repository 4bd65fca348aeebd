package judge

import (
	"encoding/base64"
	"encoding/json"
	"mime"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// contentItem is a content item of a tool result or a prompt message, with
// the members the judge reads.
type contentItem struct {
	Type     string            `json:"type"`
	Text     rawText           `json:"text"`
	Data     optString         `json:"data"`
	MimeType optString         `json:"mimeType"`
	URI      optString         `json:"uri"`
	Resource *resourceContents `json:"resource"`
}

// contentItemFields are contentItem's members: its optional strings, in
// the order readContentItem lists them, then type, text and resource.
var contentItemFields = []string{"data", "mimeType", "uri", "type", "text", "resource"}

// readContentItem reads a content block into *c as Decode would.
func readContentItem(c *contentItem, obj rawjson.Checked) readOutcome {
	return readObject(obj, contentItemFields, func(field int, value []byte) readOutcome {
		return c.set(field, value, obj)
	})
}

// set sets the member of contentItemFields at index field as Decode would;
// value lies in in, the Checked text read.
func (c *contentItem) set(field int, value []byte, in rawjson.Checked) readOutcome {
	switch contentItemFields[field] {
	case "type":
		return setString(&c.Type, value)
	case "text":
		return setRawText(&c.Text, value)
	case "resource":
		return setResource(&c.Resource, value, in)
	}
	return setOptString([...]*optString{&c.Data, &c.MimeType, &c.URI}[field], value)
}

// setResource sets an embedded resource as decoding into a pointer does:
// null clears it, and a repeated member is decoded into what the first one
// left.
func setResource(dst **resourceContents, value []byte, in rawjson.Checked) readOutcome {
	if rawjson.Kind(value) == 'n' {
		*dst = nil
		return readDecoded
	}
	if *dst == nil {
		*dst = new(resourceContents)
	}
	resource, _ := in.Within(value)
	return readResourceContents(*dst, resource)
}

// resourceContents is an entry of a resources/read result, or the resource
// of an embedded resource block.
type resourceContents struct {
	URI      optString `json:"uri"`
	MimeType optString `json:"mimeType"`
	Text     optString `json:"text"`
	Blob     optString `json:"blob"`
}

// resourceContentsFields are resourceContents' members, in field order.
var resourceContentsFields = []string{"uri", "mimeType", "text", "blob"}

// readResourceContents reads resource contents into *r as Decode would.
func readResourceContents(r *resourceContents, obj rawjson.Checked) readOutcome {
	return readObject(obj, resourceContentsFields, r.set)
}

// set sets the member of resourceContentsFields at index field as Decode
// would.
func (r *resourceContents) set(field int, value []byte) readOutcome {
	return setOptString([...]*optString{&r.URI, &r.MimeType, &r.Text, &r.Blob}[field], value)
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
func contentItems(raw rawjson.Checked) (items []contentItem, isArray bool) {
	return contentItemsInto(nil, raw)
}

// contentItemsInto is contentItems that reads the blocks into dst, an empty
// slice whose room the caller lends.
func contentItemsInto(dst []contentItem, raw rawjson.Checked) (items []contentItem, isArray bool) {
	if items, isArray, out := readContentItems(dst, raw); out != readUnsure {
		return items, isArray
	}
	return decodeBlocks[contentItem](raw.Bytes())
}

// decodeBlocks decodes a content member into one T or an array of them, as
// contentItems reads it.
func decodeBlocks[T any](raw json.RawMessage) (items []T, isArray bool) {
	var many []T
	if Decode(raw, &many) {
		return many, true
	}
	var one T
	if Decode(raw, &one) {
		return []T{one}, false
	}
	return nil, false
}

// readContentItems is contentItemsInto without the decoder, unless it is
// unsure. Like decoding, it gives nil for no blocks.
func readContentItems(dst []contentItem, raw rawjson.Checked) (items []contentItem, isArray bool, out readOutcome) {
	switch rawjson.Kind(raw.Bytes()) {
	case 'n':
		return nil, true, readDecoded
	case '[':
		items = dst
		out = readObjects(raw, contentItemFields, func() { items = append(items, contentItem{}) },
			func(field int, value []byte) readOutcome { return items[len(items)-1].set(field, value, raw) })
		if out == readRefused {
			return nil, false, out // nor is an array one block
		}
		if len(items) == 0 {
			items = nil
		}
		return items, true, out
	case '{':
		var one contentItem
		if out = readContentItem(&one, raw); out == readDecoded {
			return append(dst, one), false, out
		}
		return nil, false, out
	}
	return nil, false, readRefused
}

// decodedContent is the content member of a message's result, decoded once:
// the tools, resources and prompts rules all read the blocks of a result.
type decodedContent struct {
	raw     json.RawMessage
	items   []contentItem
	isArray bool
	done    bool
	// room holds the blocks of a result that has one, as most tool results
	// do, so that reading them allocates nothing. The Msg is reused for
	// the next message, and so is this room.
	room [1]contentItem
}

// resultBlocks returns the blocks of raw, the content member of m's result,
// decoding them only the first time.
func (m *Msg) resultBlocks(raw json.RawMessage) ([]contentItem, bool) {
	c := &m.content
	if !c.done || !sameBytes(c.raw, raw) {
		c.items, c.isArray = contentItemsInto(c.room[:0], m.result.checked(raw))
		c.raw, c.done = raw, true
	}
	return c.items, c.isArray
}

// resultContent returns the content blocks of a tools/call result or of
// the messages of a prompts/get result.
func resultContent(m *Msg) []contentItem {
	var content json.RawMessage
	out := readObject(m.result.checked(m.Result), resultContentFields, func(field int, value []byte) readOutcome {
		if field == 1 {
			return readUnsure // a prompt's messages: decodedResultContent reads them
		}
		content = value
		return readDecoded
	})
	switch out {
	case readRefused:
		return nil
	case readUnsure:
		return decodedResultContent(m)
	}
	own, _ := m.resultBlocks(content)
	return own
}

// resultContentFields are the members decodedResultContent decodes.
var resultContentFields = []string{"content", "messages"}

func decodedResultContent(m *Msg) []contentItem {
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
		items, _ := contentItems(m.result.checked(msg.Content))
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
