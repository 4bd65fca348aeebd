// Package definition holds the rules that judge the clauses of the registry's
// definition area (internal/spec/registry/REVISION/definition.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package definition
