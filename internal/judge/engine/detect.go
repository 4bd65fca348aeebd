package engine

import (
	"encoding/json"
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
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
	// SourceProposed: the client's initialize proposed it and the answer
	// named a version that is no revision, so the proposal stands.
	SourceProposed = "proposed"
	SourceDefault  = "default"
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

// Observe looks at one event and reports whether the revision is now decided.
func (g *revisionGuess) Observe(ev *trace.Event) bool {
	switch ev.Kind {
	case trace.KindHTTP:
		if v := ev.Headers["mcp-protocol-version"]; v != "" && g.header == "" {
			g.header = v
		}
	case trace.KindMessage:
		for _, m := range message.ParseMessages(nil, ev) {
			g.Message(m)
		}
	}
	return g.decided
}

func (g *revisionGuess) Message(m *message.Msg) {
	switch {
	case m.Kind == message.KindRequest && m.Method == "initialize":
		if g.initIDs == nil {
			g.initIDs = map[string]bool{}
		}
		g.initIDs[m.IDKey] = true
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if g.requested == "" && message.Decode(m.Params, &p) {
			g.requested = p.ProtocolVersion
		}
	case m.Kind == message.KindRequest:
		if v := MetaVersion(m); v != "" && g.meta == "" {
			g.meta = v
			// A request that declares its revision without a handshake
			// before it is a stateless (2026-07-28 style) session.
			g.decided = g.initIDs == nil
		}
	case m.Kind == message.KindError && g.initIDs[m.IDKey]:
		g.refused = true
	case m.Kind == message.KindResult && g.initIDs[m.IDKey]:
		var res struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if message.Decode(m.Result, &res) && res.ProtocolVersion != "" {
			g.negotiated, g.decided = res.ProtocolVersion, true
		}
	}
}

func MetaVersion(m *message.Msg) string {
	var v string
	if raw, ok := m.ParamsMeta().Lookup("io.modelcontextprotocol/protocolVersion"); ok {
		_ = json.Unmarshal(raw, &v)
	}
	return v
}

// choice is the revision a trace is judged under, how it was chosen, and,
// when the trace named a version this build does not judge, a note that
// says so.
type choice struct {
	rev, source, note string
	// why says, for a fallback, why its revision was chosen.
	why string
}

// choose picks the revision to judge under. A version that is no revision
// this build judges (a server answering "1.0", a client asking for one)
// is not a reason to refuse the trace: the party that sent it broke a
// lifecycle or versioning clause, and the session is judged under the
// revision the client proposed when that is one, else the newest with a
// handshake, so that the clause can fail. A trace with no evidence at all
// is judged under the newest handshake revision too: a session that skips
// initialize and names no version per request has kept no revision's
// rules, and the handshake's are the ones it shows it broke.
func (g *revisionGuess) choose(known func(string) bool, newest, handshake string) choice {
	fallback := choice{rev: handshake, source: SourceDefault, why: "the newest with an initialize handshake"}
	switch {
	case g.refused:
		// A server that refused initialize speaks only revisions newer
		// than the handshake, whose rules then apply.
		fallback.rev, fallback.why = newest, "the newest, as the server refused initialize"
	case known(g.requested) && g.negotiated != "":
		fallback = choice{rev: g.requested, source: SourceProposed, why: "the one the client proposed"}
	case known(g.requested):
		fallback = choice{rev: g.requested, source: SourceRequested, why: "the one the client proposed"}
	}
	for _, declared := range []struct{ version, source, who string }{
		{g.negotiated, SourceNegotiated, "the server answered initialize with"},
		{g.meta, SourceMeta, "requests declare in _meta"},
		{g.header, SourceHeader, "the MCP-Protocol-Version header names"},
	} {
		switch {
		case declared.version == "":
			continue
		case known(declared.version):
			return choice{rev: declared.version, source: declared.source}
		}
		if declared.source == SourceMeta && fallback.source == SourceDefault {
			// Only the newest revision declares itself per request.
			fallback.rev, fallback.why = newest, "the newest, whose requests name their revision in _meta"
		}
		fallback.note = fmt.Sprintf("%s protocol version %q, which is no revision this build judges; the trace is judged under %s (%s)",
			declared.who, declared.version, fallback.rev, fallback.why)
		return fallback
	}
	if g.requested != "" && !known(g.requested) {
		fallback.note = fmt.Sprintf("the client asked for protocol version %q, which is no revision this build judges; the trace is judged under %s (%s)",
			g.requested, fallback.rev, fallback.why)
	}
	return fallback
}
