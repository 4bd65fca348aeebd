// Package completion holds the rules that judge the clauses of the registry's
// completion area (internal/spec/registry/REVISION/completion.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package completion
