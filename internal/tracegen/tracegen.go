// Package tracegen writes large, realistic, conforming 2025-11-25 traces
// for benchmarks, in two mixes. Write is one stdio session of small
// messages: a handshake, then rounds of listing, calling tools with
// progress, reading resources, pings and log messages. WriteHTTP is the
// mix of recorded sessions: several streamable-HTTP sessions interleaved,
// with SSE frames, large results and many notifications.
package tracegen

import (
	"bufio"
	"fmt"
	"io"
)

// Write writes a trace of at least n events to w.
func Write(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	g := &gen{w: bw}
	g.handshake()
	for g.seq < int64(n) {
		g.round()
	}
	return bw.Flush()
}

type gen struct {
	w   *bufio.Writer
	seq int64
	id  int64
}

func (g *gen) emit(dir, payload string) {
	fmt.Fprintf(g.w, `{"seq":%d,"direction":"%s","transport":"stdio","kind":"message","payload":%s,"stream":"stdio","mono_ns":%d}`+"\n",
		g.seq, dir, payload, g.seq*41_000)
	g.seq++
}

func (g *gen) client(payload string) { g.emit("client-to-server", payload) }
func (g *gen) server(payload string) { g.emit("server-to-client", payload) }

func (g *gen) next() int64 { g.id++; return g.id }

func (g *gen) handshake() {
	fmt.Fprintf(g.w, `{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"lifecycle","event":"transport-open"}`+"\n")
	g.seq++
	id := g.next()
	g.client(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{}},"clientInfo":{"name":"bench-client","version":"1.0.0"}}}`, id))
	g.server(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true},"prompts":{},"logging":{},"completions":{}},"serverInfo":{"name":"bench-server","version":"1.0.0"}}}`, id))
	g.client(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func (g *gen) round() {
	id := g.next()
	g.client(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, id))
	g.server(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"tools":[{"name":"add","description":"Adds two numbers.","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]},"outputSchema":{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]},"annotations":{"readOnlyHint":true}},{"name":"echo","description":"Echoes a message.","inputSchema":{"type":"object","properties":{"message":{"type":"string"}}}}]}}`, id))
	id = g.next()
	g.client(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add","arguments":{"a":%d,"b":2},"_meta":{"progressToken":"p%d"}}}`, id, id, id))
	g.server(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p%d","progress":1,"total":2}}`, id))
	g.server(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p%d","progress":2,"total":2}}`, id))
	g.server(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"{\"sum\":%d}"}],"structuredContent":{"sum":%d}}}`, id, id+2, id+2))
	id = g.next()
	g.client(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"notes://n%d"}}`, id, id%50))
	g.server(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"contents":[{"uri":"notes://n%d","mimeType":"text/plain","text":"Note number %d: the quick brown fox jumps over the lazy dog."}]}}`, id, id%50, id%50))
	g.server(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"bench","data":"handled a read"}}`)
	id = g.next()
	g.client(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id))
	g.server(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, id))
}
