// Package mrtr holds the rules that judge the clauses of the registry's
// mrtr area (internal/spec/registry/REVISION/mrtr.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package mrtr
