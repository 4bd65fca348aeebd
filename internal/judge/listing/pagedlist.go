package listing

import (
	"encoding/json"
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// MaxOpenListings bounds how many unfinished paginated listings a rule
// follows at once; a client rarely walks more than one at a time.
const MaxOpenListings = 64

// PagedList assembles the pages of one list method (tools/list,
// prompts/list, ...) into whole listings: a request without a cursor starts
// a listing, and each nextCursor the server hands out continues it.
type PagedList struct {
	// member is the result member holding the items: "tools", "prompts",
	// "resources" or "resourceTemplates".
	member string
	open   map[string]*listingSoFar
	// cursors lists the keys of open, oldest first, for eviction.
	cursors []string
	// last is the most recent result read whole, with where each of its
	// items lies in it.
	last readPage
}

// readPage is a list result and what a page takes from it: its nextCursor
// and the span of each item in it. A server that repeats its list sends
// the same bytes, whose items lie where they did, so they are found again
// without reading the result.
type readPage struct {
	result engine.SameText
	spans  []span
	next   string
}

type span struct{ start, end int }

type listingSoFar struct {
	items []json.RawMessage
	// whole is false when the first pages were not seen (a cursor from
	// before the trace began, or one evicted), so the listing is partial.
	whole bool
}

// ListPage is one list result as the rules see it.
type ListPage struct {
	// Items are this page's items; all are the listing's so far, this page
	// included.
	Items, all []json.RawMessage
	// Complete is set when this page ended a listing whose every page was
	// seen: all is then the server's whole listing, and keys (set by the
	// feature that reads the page) the key member of each of its items.
	Complete bool
	Keys     []string
	// Next is the page's nextCursor, "" on the last page.
	Next string
}

func NewPagedList(member string) *PagedList {
	return &PagedList{member: member, open: map[string]*listingSoFar{}}
}

// Add reads a list result; ok is false when the result carries no array of
// items under the member.
func (l *PagedList) Add(m *message.Msg) (p ListPage, ok bool) {
	if p.Items, p.Next, ok = l.read(m); !ok {
		return p, false
	}
	cursor, hasCursor := requestCursor(m.Request)
	sofar := &listingSoFar{whole: true}
	if hasCursor {
		sofar = l.open[cursor]
		if sofar == nil {
			sofar = &listingSoFar{}
		}
	}
	p.all = p.Items // a first page is the listing so far: no copy
	if len(sofar.items) > 0 {
		p.all = append(slices.Clip(sofar.items), p.Items...)
	}
	if p.Next == "" {
		p.Complete = sofar.whole
		return p, true
	}
	l.Keep(p.Next, &listingSoFar{items: p.all, whole: sofar.whole})
	return p, true
}

// read returns the items and nextCursor of a list result; false when it
// carries no array of items under the member. A result the same to the
// byte as the previous one read has its items where that one had them.
func (l *PagedList) read(m *message.Msg) (items []json.RawMessage, next string, ok bool) {
	if l.last.result.Is(m.Result) {
		return l.last.itemsIn(m.Result), l.last.next, true
	}
	if items, ok = arrayItems(m.ResultMembers.Checked(m.ResultField(l.member))); !ok {
		return nil, "", false
	}
	next, _ = m.ResultString("nextCursor")
	l.last.Keep(m.Result, items, next)
	return items, next, true
}

// Keep remembers result, its items and its nextCursor in place of the
// page before, unless result is too long to keep a copy of.
func (r *readPage) Keep(result []byte, items []json.RawMessage, next string) {
	if !r.result.Keep(result, engine.MaxSameListing) {
		return
	}
	spans, ok := spansOf(r.spans[:0], result, items)
	if !ok {
		r.result.Forget()
		return
	}
	r.spans, r.next = spans, next
}

// spansOf appends to spans where items, elements of a member of result,
// lie in it. Each is a slice of result, so its capacity tells where it
// starts; false for an item that lies elsewhere.
func spansOf(spans []span, result []byte, items []json.RawMessage) ([]span, bool) {
	for _, it := range items {
		start := cap(result) - cap(it)
		if start < 0 || start+len(it) > len(result) {
			return nil, false
		}
		spans = append(spans, span{start, start + len(it)})
	}
	return spans, true
}

// itemsIn returns the items of result, the same to the byte as the result
// the spans were taken from, as arrayItems reads them.
func (r *readPage) itemsIn(result []byte) []json.RawMessage {
	items := make([]json.RawMessage, len(r.spans))
	for i, sp := range r.spans {
		items[i] = result[sp.start:sp.end]
	}
	return items
}

func (l *PagedList) Keep(cursor string, sofar *listingSoFar) {
	if _, known := l.open[cursor]; !known {
		l.cursors = append(l.cursors, cursor)
	}
	l.open[cursor] = sofar
	if len(l.cursors) > MaxOpenListings {
		delete(l.open, l.cursors[0])
		l.cursors = l.cursors[1:]
	}
}

// requestCursor returns the cursor a list request carried.
func requestCursor(r *message.Request) (string, bool) {
	if r == nil {
		return "", false
	}
	return cursorString(r.ParamsField("cursor"))
}

// ParamsCursor returns the cursor member of list request params.
func ParamsCursor(params json.RawMessage) (string, bool) {
	return cursorString(message.ObjectMember(params, "cursor"))
}

// cursorString reads a cursor member: a string, or absent (null counts as
// absent, as decoding into a *string reads it).
func cursorString(raw json.RawMessage) (string, bool) {
	if raw == nil || message.IsNull(raw) {
		return "", false
	}
	return message.JSONString(raw)
}

// arrayItems returns the elements of a JSON array; false when raw is not
// one (null included), as decoding into a slice that must not stay nil
// reads it. The array is Checked text, read without checking its grammar
// again: a listing's items are most of its bytes.
func arrayItems(raw rawjson.Checked) ([]json.RawMessage, bool) {
	if rawjson.Kind(raw.Bytes()) != '[' {
		return nil, false
	}
	items := []json.RawMessage{}
	e := raw.Elements()
	for e.Next() {
		items = append(items, e.Value())
	}
	return items, e.Valid()
}

// MaxCursors bounds the cursors remembered per session.
const MaxCursors = 4096

func CursorKey(method, cursor string) string { return method + "\x00" + cursor }
