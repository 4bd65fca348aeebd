package tracegen

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// WriteHTTP writes a conforming 2025-11-25 streamable-HTTP trace of at
// least n events, of the mix recorded sessions show rather than the one
// cheapest to judge: several sessions interleaved exchange by exchange,
// each with its session id, SSE streams framed event by event, long string
// request ids, a tool list of nested schemas repeated on every listing,
// tool results of several kilobytes with structured content matching their
// output schema, resource contents in text and in base64 blobs, and many
// small notifications (progress, log messages, list changes). The bytes
// depend on n alone.
func WriteHTTP(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	h := &httpGen{w: bw, rnd: rand.New(rand.NewPCG(1, 2))}
	const sessions = 4
	for i := range sessions {
		h.sessions = append(h.sessions, &httpSession{id: fmt.Sprintf("7c1e%04x-51d2-4b8e-9a3f-%012x", i, 0x5eed0000+i)})
	}
	h.lifecycle("transport-open", nil)
	for _, s := range h.sessions {
		h.handshake(s)
	}
	for step := 0; h.seq < int64(n); step++ {
		h.step(h.sessions[step%sessions], step/sessions)
	}
	for _, s := range h.sessions {
		h.lifecycle("transport-close", s)
	}
	return bw.Flush()
}

type httpGen struct {
	w        *bufio.Writer
	rnd      *rand.Rand
	seq      int64
	exchange int
	sse      int
	sessions []*httpSession
}

type httpSession struct {
	id       string
	requests int
	// get is the exchange of the session's standalone GET stream.
	get int
}

// requestID is a long string id, as SDKs that use UUIDs send them.
func (s *httpSession) requestID() string {
	s.requests++
	return fmt.Sprintf(`"%s-req-%08d"`, s.id[:13], s.requests)
}

func (h *httpGen) line(format string, args ...any) {
	fmt.Fprintf(h.w, `{"seq":%d,`, h.seq)
	fmt.Fprintf(h.w, format, args...)
	fmt.Fprintf(h.w, `,"mono_ns":%d}`+"\n", h.seq*23_000)
	h.seq++
}

// sessionField is the event's session member, empty before the server
// named one.
func sessionField(s *httpSession) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf(`,"session":"%s"`, s.id)
}

func (h *httpGen) lifecycle(event string, s *httpSession) {
	h.line(`"direction":"client-to-server","transport":"streamable-http","kind":"lifecycle","event":"%s"%s`, event, sessionField(s))
}

// post opens an exchange: the POST and the message it carries.
func (h *httpGen) post(s *httpSession, withSession bool, payload string) int {
	h.exchange++
	e := h.exchange
	headers := `"accept":"application/json, text/event-stream","content-type":"application/json"`
	var sess *httpSession
	if withSession {
		headers += fmt.Sprintf(`,"mcp-protocol-version":"2025-11-25","mcp-session-id":"%s"`, s.id)
		sess = s
	}
	h.line(`"direction":"client-to-server","transport":"streamable-http","kind":"http","method":"POST","path":"/mcp","headers":{%s},"exchange":%d,"stream":"post:%d"%s`, headers, e, e, sessionField(sess))
	h.line(`"direction":"client-to-server","transport":"streamable-http","kind":"message","payload":%s,"exchange":%d,"stream":"post:%d"%s`, payload, e, e, sessionField(sess))
	return e
}

// status answers an exchange with its status line and headers.
func (h *httpGen) status(s *httpSession, e, code int, contentType string, newSession bool) {
	headers := ""
	if contentType != "" {
		headers = fmt.Sprintf(`"content-type":"%s"`, contentType)
		if contentType == "text/event-stream" {
			headers = `"cache-control":"no-cache","content-type":"text/event-stream"`
		}
	}
	if newSession {
		headers += fmt.Sprintf(`,"mcp-session-id":"%s"`, s.id)
	}
	if headers != "" {
		headers = fmt.Sprintf(`,"headers":{%s}`, strings.TrimPrefix(headers, ","))
	}
	h.line(`"direction":"server-to-client","transport":"streamable-http","kind":"http","status":%d%s,"exchange":%d,"stream":"%s:%d"%s`, code, headers, e, streamKind(s, e), e, sessionField(s))
}

func streamKind(s *httpSession, e int) string {
	if s.get == e {
		return "get"
	}
	return "post"
}

// reply is a server message on an exchange's stream; on an SSE stream an
// event frame with its id comes first.
func (h *httpGen) reply(s *httpSession, e int, sse bool, payload string) {
	stream := fmt.Sprintf("%s:%d", streamKind(s, e), e)
	if sse {
		h.sse++
		h.line(`"direction":"server-to-client","transport":"streamable-http","kind":"http","exchange":%d,"stream":"%s","sse":{"id":"%s-ev-%d"}%s`, e, stream, s.id[:8], h.sse, sessionField(s))
	}
	h.line(`"direction":"server-to-client","transport":"streamable-http","kind":"message","payload":%s,"exchange":%d,"stream":"%s"%s`, payload, e, stream, sessionField(s))
}

// closeStream ends an SSE response's stream.
func (h *httpGen) closeStream(s *httpSession, e int) {
	h.line(`"direction":"server-to-client","transport":"streamable-http","kind":"lifecycle","event":"transport-close","exchange":%d,"stream":"%s:%d"%s`, e, streamKind(s, e), e, sessionField(s))
}

func (h *httpGen) handshake(s *httpSession) {
	id := s.requestID()
	e := h.post(s, false, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{}}},"clientInfo":{"name":"bench-agent","title":"Bench Agent","version":"3.4.1"}}}`, id))
	h.status(s, e, 200, "text/event-stream", true)
	h.reply(s, e, true, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"prompts":{"listChanged":true},"logging":{},"completions":{}},"serverInfo":{"name":"catalog-server","title":"Catalog Server","version":"2.7.0"},"instructions":"Search the catalog before you order; prices are in minor units."}}`, id))
	h.closeStream(s, e)
	e = h.post(s, true, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	h.status(s, e, 202, "", false)
	h.exchange++
	s.get = h.exchange
	h.line(`"direction":"client-to-server","transport":"streamable-http","kind":"http","method":"GET","path":"/mcp","headers":{"accept":"text/event-stream","mcp-protocol-version":"2025-11-25","mcp-session-id":"%s"},"exchange":%d,"stream":"get:%d"%s`, s.id, s.get, s.get, sessionField(s))
	h.status(s, s.get, 200, "text/event-stream", false)
}

// step is one exchange of a session's round: listing, searching with
// progress and logs, reading a text and a blob resource, pinging, and now
// and then a list change on the standalone stream.
func (h *httpGen) step(s *httpSession, round int) {
	switch round % 6 {
	case 0:
		id := s.requestID()
		e := h.post(s, true, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/list"}`, id))
		h.status(s, e, 200, "application/json", false)
		h.reply(s, e, false, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":%s}}`, id, toolList))
	case 1, 4:
		h.search(s, round)
	case 2:
		h.read(s, round, false)
	case 3:
		h.read(s, round, true)
	case 5:
		id := s.requestID()
		e := h.post(s, true, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"ping"}`, id))
		h.status(s, e, 200, "application/json", false)
		h.reply(s, e, false, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, id))
		if round%24 == 5 {
			h.reply(s, s.get, true, `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`)
		}
	}
}

// search calls the catalog tool with a progress token: the answer streams
// as progress and log notifications, then a result of several kilobytes.
func (h *httpGen) search(s *httpSession, round int) {
	id := s.requestID()
	token := fmt.Sprintf("%s-progress-%d", s.id[:8], s.requests)
	e := h.post(s, true, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"search_catalog","arguments":{"query":"%s","limit":%d,"filters":{"in_stock":true,"tags":["outdoor","sale"]}},"_meta":{"progressToken":"%s"}}}`, id, words(h.rnd, 3), 8+round%5, token))
	h.status(s, e, 200, "text/event-stream", false)
	const steps = 6
	for i := 1; i <= steps; i++ {
		h.reply(s, e, true, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"%s","progress":%d,"total":%d,"message":"scanned shard %d of %d"}}`, token, i, steps, i, steps))
		if i%2 == 0 {
			h.reply(s, e, true, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"debug","logger":"catalog.search","data":{"shard":%d,"hits":%d,"elapsed_ms":%d}}}`, i, h.rnd.IntN(400), h.rnd.IntN(90)))
		}
	}
	structured := h.searchResult(8 + round%5)
	h.reply(s, e, true, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%q}],"structuredContent":%s}}`, id, structured, structured))
	h.closeStream(s, e)
}

// searchResult is the structured content of a search: nested items, as
// the tool's output schema describes them.
func (h *httpGen) searchResult(items int) string {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"sku-%06d","title":"%s","description":"%s","price":{"amount":%d,"currency":"EUR"},"tags":["%s","%s"],"stock":{"warehouse":"w%d","count":%d}}`,
			h.rnd.IntN(1_000_000), words(h.rnd, 4), words(h.rnd, 14), 100+h.rnd.IntN(90_000), words(h.rnd, 1), words(h.rnd, 1), h.rnd.IntN(9), h.rnd.IntN(300))
	}
	fmt.Fprintf(&b, `],"total":%d,"next_cursor":"c%d"}`, items+h.rnd.IntN(500), h.rnd.IntN(1<<30))
	return b.String()
}

// read reads a resource: a text document of a few kilobytes, or a binary
// blob in base64.
func (h *httpGen) read(s *httpSession, round int, blob bool) {
	id := s.requestID()
	uri := fmt.Sprintf("catalog://manuals/%d", round%40)
	if blob {
		uri = fmt.Sprintf("catalog://images/%d.png", round%40)
	}
	e := h.post(s, true, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"resources/read","params":{"uri":"%s"}}`, id, uri))
	h.status(s, e, 200, "application/json", false)
	var contents string
	if blob {
		raw := make([]byte, 1024+h.rnd.IntN(2048))
		for i := range raw {
			raw[i] = byte(h.rnd.Uint32())
		}
		contents = fmt.Sprintf(`{"uri":"%s","mimeType":"application/octet-stream","blob":"%s"}`, uri, base64.StdEncoding.EncodeToString(raw))
	} else {
		contents = fmt.Sprintf(`{"uri":"%s","mimeType":"text/markdown","text":%q}`, uri, "# Manual\n\n"+words(h.rnd, 160))
	}
	h.reply(s, e, false, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"contents":[%s]}}`, id, contents))
}

var vocabulary = strings.Fields("trail lantern merino shell fleece summit river canvas ember granite alpine harbor " +
	"compass drift willow cedar ridge meadow basalt tundra glacier prairie quartz juniper falcon orbit")

// words is count words of the vocabulary, space separated.
func words(r *rand.Rand, count int) string {
	var b strings.Builder
	for i := range count {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocabulary[r.IntN(len(vocabulary))])
	}
	return b.String()
}

// toolList is the server's tools, the same bytes on every listing, with
// the nested input and output schemas real servers declare.
var toolList = `[` +
	`{"name":"search_catalog","title":"Search the catalog","description":"Full-text search over the product catalog, with filters.",` +
	`"inputSchema":{"type":"object","properties":{"query":{"type":"string","minLength":1},"limit":{"type":"integer","minimum":1,"maximum":50},` +
	`"filters":{"type":"object","properties":{"in_stock":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}}},"additionalProperties":false}},"required":["query"]},` +
	`"outputSchema":{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"},"description":{"type":"string"},` +
	`"price":{"type":"object","properties":{"amount":{"type":"integer"},"currency":{"type":"string","enum":["EUR","USD"]}},"required":["amount","currency"]},` +
	`"tags":{"type":"array","items":{"type":"string"}},"stock":{"type":"object","properties":{"warehouse":{"type":"string"},"count":{"type":"integer","minimum":0}}}},"required":["id","title","price"]}},` +
	`"total":{"type":"integer"},"next_cursor":{"type":"string"}},"required":["items","total"]},` +
	`"annotations":{"readOnlyHint":true,"openWorldHint":false}},` +
	`{"name":"place_order","title":"Place an order","description":"Orders items for delivery; asks the user to confirm the total.",` +
	`"inputSchema":{"type":"object","properties":{"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"quantity":{"type":"integer","minimum":1}},"required":["sku","quantity"]}},` +
	`"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"},"postcode":{"type":"string"},"country":{"type":"string","minLength":2,"maxLength":2}},"required":["street","city","country"]}},"required":["lines","address"]},` +
	`"annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":true}},` +
	`{"name":"track_parcel","description":"Tracks a parcel by its number.","inputSchema":{"type":"object","properties":{"number":{"type":"string","pattern":"^[A-Z]{2}[0-9]{9}[A-Z]{2}$"}},"required":["number"]},` +
	`"annotations":{"readOnlyHint":true}},` +
	`{"name":"cancel_order","description":"Cancels an order that has not shipped.","inputSchema":{"type":"object","properties":{"order":{"type":"string"},"reason":{"type":"string","enum":["changed_mind","too_slow","duplicate","other"]}},"required":["order"]},` +
	`"annotations":{"destructiveHint":true,"idempotentHint":true}}` +
	`]`
