package judge

import (
	"encoding/json"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// detectLimit bounds how many events the judge holds while it looks for the
// revision a trace declares; past it the best evidence so far decides.
const detectLimit = 4096

// Revision sources, strongest first, as the report names them.
const (
	SourceFlag       = "flag"
	SourceNegotiated = "negotiated"
	SourceMeta       = "meta"
	SourceHeader     = "header"
	// SourceRequested: the client's initialize asked for it and no answer
	// came, so nothing was negotiated but the client's intent is known.
	SourceRequested = "requested"
	SourceDefault   = "default"
)

// revisionGuess collects what a trace says about its revision: the
// negotiated protocolVersion of an initialize result, the per-request _meta
// protocol version, and the MCP-Protocol-Version header.
type revisionGuess struct {
	initIDs    map[string]bool
	negotiated string
	meta       string
	header     string
	requested  string
	// refused is set when the server answered initialize with an error: a
	// server that speaks only newer revisions, whose rules then apply.
	refused bool
	decided bool
}

// observe looks at one event and reports whether the revision is now decided.
func (g *revisionGuess) observe(ev *trace.Event) bool {
	switch ev.Kind {
	case trace.KindHTTP:
		if v := ev.Headers["mcp-protocol-version"]; v != "" && g.header == "" {
			g.header = v
		}
	case trace.KindMessage:
		for _, m := range parseMessages(nil, ev) {
			g.message(m)
		}
	}
	return g.decided
}

func (g *revisionGuess) message(m *Msg) {
	switch {
	case m.Kind == KindRequest && m.Method == "initialize":
		if g.initIDs == nil {
			g.initIDs = map[string]bool{}
		}
		g.initIDs[m.IDKey] = true
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if g.requested == "" && Decode(m.Params, &p) {
			g.requested = p.ProtocolVersion
		}
	case m.Kind == KindRequest:
		if v := metaVersion(m); v != "" && g.meta == "" {
			g.meta = v
			// A request that declares its revision without a handshake
			// before it is a stateless (2026-07-28 style) session.
			g.decided = g.initIDs == nil
		}
	case m.Kind == KindError && g.initIDs[m.IDKey]:
		g.refused = true
	case m.Kind == KindResult && g.initIDs[m.IDKey]:
		var res struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if Decode(m.Result, &res) && res.ProtocolVersion != "" {
			g.negotiated, g.decided = res.ProtocolVersion, true
		}
	}
}

func metaVersion(m *Msg) string {
	var v string
	if raw, ok := m.ParamsMeta().lookup("io.modelcontextprotocol/protocolVersion"); ok {
		_ = json.Unmarshal(raw, &v)
	}
	return v
}

// choose returns the revision and how it was chosen.
func (g *revisionGuess) choose(newest string) (rev, source string) {
	switch {
	case g.negotiated != "":
		return g.negotiated, SourceNegotiated
	case g.meta != "":
		return g.meta, SourceMeta
	case g.header != "":
		return g.header, SourceHeader
	case g.requested != "" && !g.refused:
		return g.requested, SourceRequested
	}
	return newest, SourceDefault
}
