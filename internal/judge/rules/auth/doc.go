// Package auth holds the rules that judge the clauses of the registry's
// authorization area (internal/spec/registry/REVISION/authorization.toml):
// what an MCP server shows on the wire as an OAuth resource server, and the
// client's bearer tokens as a recording keeps them (their presence, never
// their value). Each rule file registers its checks at init, and the judge
// package imports this folder.
package auth
