package message

import (
	"encoding/base64"
	"encoding/json"
	"mime"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// ContentItem is a content item of a tool result or a prompt message, with
// the members the judge reads.
type ContentItem struct {
	Type     string            `json:"type"`
	Text     RawText           `json:"text"`
	Data     OptString         `json:"data"`
	MimeType OptString         `json:"mimeType"`
	URI      OptString         `json:"uri"`
	Resource *ResourceContents `json:"resource"`
}

// contentItemFields are contentItem's members: its optional strings, in
// the order readContentItem lists them, then type, text and resource.
var contentItemFields = []string{"data", "mimeType", "uri", "type", "text", "resource"}

// readContentItem reads a content block into *c as Decode would.
func readContentItem(c *ContentItem, obj rawjson.Checked) ReadOutcome {
	return readObject(obj, contentItemFields, func(field int, value []byte) ReadOutcome {
		return c.Set(field, value, obj)
	})
}

// Set sets the member of contentItemFields at index field as Decode would;
// value lies in in, the Checked text read.
func (c *ContentItem) Set(field int, value []byte, in rawjson.Checked) ReadOutcome {
	switch contentItemFields[field] {
	case "type":
		return SetString(&c.Type, value)
	case "text":
		return setRawText(&c.Text, value)
	case "resource":
		return setResource(&c.Resource, value, in)
	}
	return setOptString([...]*OptString{&c.Data, &c.MimeType, &c.URI}[field], value)
}

// setResource sets an embedded resource as decoding into a pointer does:
// null clears it, and a repeated member is decoded into what the first one
// left.
func setResource(dst **ResourceContents, value []byte, in rawjson.Checked) ReadOutcome {
	if rawjson.Kind(value) == 'n' {
		*dst = nil
		return ReadDecoded
	}
	if *dst == nil {
		*dst = new(ResourceContents)
	}
	resource, _ := in.Within(value)
	return readResourceContents(*dst, resource)
}

// ResourceContents is an entry of a resources/read result, or the resource
// of an embedded resource block.
type ResourceContents struct {
	URI      OptString `json:"uri"`
	MimeType OptString `json:"mimeType"`
	Text     OptString `json:"text"`
	Blob     OptString `json:"blob"`
}

// ResourceContentsFields are resourceContents' members, in field order.
var ResourceContentsFields = []string{"uri", "mimeType", "text", "blob"}

// readResourceContents reads resource contents into *r as Decode would.
func readResourceContents(r *ResourceContents, obj rawjson.Checked) ReadOutcome {
	return readObject(obj, ResourceContentsFields, r.Set)
}

// Set sets the member of resourceContentsFields at index field as Decode
// would.
func (r *ResourceContents) Set(field int, value []byte) ReadOutcome {
	return setOptString([...]*OptString{&r.URI, &r.MimeType, &r.Text, &r.Blob}[field], value)
}

// IsBase64 reports whether s is base64 (RFC 4648, standard alphabet,
// padded or not).
func IsBase64(s string) bool {
	if _, err := base64.StdEncoding.DecodeString(s); err == nil {
		return true
	}
	_, err := base64.RawStdEncoding.DecodeString(s)
	return err == nil
}

// MimeProblem says why s is not a MIME type ("type/subtype" with optional
// parameters), or "" when it is.
func MimeProblem(s *string) string {
	if s == nil {
		return "it has no mimeType"
	}
	mt, _, err := mime.ParseMediaType(*s)
	typ, sub, slash := strings.Cut(mt, "/")
	if err != nil || !slash || typ == "" || sub == "" {
		return "its mimeType " + QuoteJSON(*s) + " is not a type/subtype MIME type"
	}
	return ""
}

// QuoteJSON quotes s for a finding.
func QuoteJSON(s string) string { return strconv.Quote(s) }

// Preview shortens a value for a finding.
func Preview(s string) string {
	if len(s) > 40 {
		return QuoteJSON(s[:40]) + "..."
	}
	return QuoteJSON(s)
}

// ContentItems decodes a content member that holds one block or an array
// of them (prompt messages hold one, tool results an array); isArray is set
// when it held an array, or was null.
func ContentItems(raw rawjson.Checked) (items []ContentItem, isArray bool) {
	return contentItemsInto(nil, raw)
}

// contentItemsInto is contentItems that reads the blocks into dst, an empty
// slice whose room the caller lends.
func contentItemsInto(dst []ContentItem, raw rawjson.Checked) (items []ContentItem, isArray bool) {
	if items, isArray, out := ReadContentItems(dst, raw); out != ReadUnsure {
		return items, isArray
	}
	return DecodeBlocks[ContentItem](raw.Bytes())
}

// DecodeBlocks decodes a content member into one T or an array of them, as
// contentItems reads it.
func DecodeBlocks[T any](raw json.RawMessage) (items []T, isArray bool) {
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

// ReadContentItems is contentItemsInto without the decoder, unless it is
// unsure. Like decoding, it gives nil for no blocks.
func ReadContentItems(dst []ContentItem, raw rawjson.Checked) (items []ContentItem, isArray bool, out ReadOutcome) {
	switch rawjson.Kind(raw.Bytes()) {
	case 'n':
		return nil, true, ReadDecoded
	case '[':
		items = dst
		out = ReadObjects(raw, contentItemFields, func() { items = append(items, ContentItem{}) },
			func(field int, value []byte) ReadOutcome { return items[len(items)-1].Set(field, value, raw) })
		if out == readRefused {
			return nil, false, out // nor is an array one block
		}
		if len(items) == 0 {
			items = nil
		}
		return items, true, out
	case '{':
		var one ContentItem
		if out = readContentItem(&one, raw); out == ReadDecoded {
			return append(dst, one), false, out
		}
		return nil, false, out
	}
	return nil, false, readRefused
}

// DecodedContent is the content member of a message's result, decoded once:
// the tools, resources and prompts rules all read the blocks of a result.
type DecodedContent struct {
	Raw     json.RawMessage
	Items   []ContentItem
	IsArray bool
	Done    bool
	// Room holds the blocks of a result that has one, as most tool results
	// do, so that reading them allocates nothing. The Msg is reused for
	// the next message, and so is this room.
	Room [1]ContentItem
}

// ResultBlocks returns the blocks of raw, the content member of m's result,
// decoding them only the first time.
func (m *Msg) ResultBlocks(raw json.RawMessage) ([]ContentItem, bool) {
	c := &m.Content
	if !c.Done || !SameBytes(c.Raw, raw) {
		c.Items, c.IsArray = contentItemsInto(c.Room[:0], m.ResultMembers.Checked(raw))
		c.Raw, c.Done = raw, true
	}
	return c.Items, c.IsArray
}

// ResultContent returns the content blocks of a tools/call result or of
// the messages of a prompts/get result.
func ResultContent(m *Msg) []ContentItem {
	var content json.RawMessage
	out := readObject(m.ResultMembers.Checked(m.Result), resultContentFields, func(field int, value []byte) ReadOutcome {
		if field == 1 {
			return ReadUnsure // a prompt's messages: decodedResultContent reads them
		}
		content = value
		return ReadDecoded
	})
	switch out {
	case readRefused:
		return nil
	case ReadUnsure:
		return DecodedResultContent(m)
	}
	own, _ := m.ResultBlocks(content)
	return own
}

// resultContentFields are the members decodedResultContent decodes.
var resultContentFields = []string{"content", "messages"}

func DecodedResultContent(m *Msg) []ContentItem {
	var res struct {
		Content  json.RawMessage `json:"content"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if !Decode(m.Result, &res) {
		return nil
	}
	own, _ := m.ResultBlocks(res.Content)
	if len(res.Messages) == 0 {
		return own
	}
	out := slices.Clip(own) // the cached blocks stay as decoded
	for _, msg := range res.Messages {
		items, _ := ContentItems(m.ResultMembers.Checked(msg.Content))
		out = append(out, items...)
	}
	return out
}

// InputRequired reports whether a 2026-07-28 result asks for more input
// instead of answering.
func InputRequired(result json.RawMessage) bool {
	var r struct {
		ResultType string `json:"resultType"`
	}
	return Decode(result, &r) && r.ResultType == "input_required"
}
