// Package sampling holds the rules that judge the clauses of the registry's
// sampling area (internal/spec/registry/REVISION/sampling.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package sampling
