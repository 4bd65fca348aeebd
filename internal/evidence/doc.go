// Package evidence holds what mcpverdict says about tool contracts: their
// fingerprints under a named recipe, the declared-versus-observed checks of
// mcp-evidence-validator's manifests and observations, the contract lockfile
// and the drift a run shows against it. Every finding is a Finding, so that
// each reporter renders them the same way.
package evidence
