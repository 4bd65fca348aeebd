// Package capture records MCP sessions as traces without taking part in them:
// a stdio wrapper around a server process and a reverse proxy in front of a
// streamable-HTTP server. Both forward bytes unchanged and record each
// message before forwarding the byte that completes it. Neither links an MCP
// SDK: what the trace holds is what crossed the wire.
package capture
