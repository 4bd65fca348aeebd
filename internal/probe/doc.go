// Package probe checks what a server's tools declare about their behaviour
// (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) against what
// they do to observable state.
//
// A definition (TOML, decoded strictly) names the server command, the state
// it keeps (sqlite databases, file trees, JSON and JSON Lines documents),
// how to seed that state, which parts of it are business records, append-only
// records or unclassified, which values are volatile, and the tools to call
// with their argument sets. The runner resets the state from its seed (twice,
// to prove the reset), runs control sessions that only start the server, then
// calls each tool once and twice from a clean reset, and for tools claiming
// idempotence two calls at once, on one connection and through two server
// processes sharing the store. Every session is captured as a trace. The
// verdicts compare the declarations, read as tri-state values from the raw
// bytes of tools/list, with the observed deltas, and carry their evidence.
package probe
