// Package transports holds the rules that judge the clauses of the registry's
// transports area (internal/spec/registry/REVISION/transports.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package transports
