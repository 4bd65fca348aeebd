// Package cancellation holds the rules that judge the clauses of the registry's
// cancellation area (internal/spec/registry/REVISION/cancellation.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package cancellation
