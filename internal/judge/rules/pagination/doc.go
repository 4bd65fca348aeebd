// Package pagination holds the rules that judge the clauses of the registry's
// pagination area (internal/spec/registry/REVISION/pagination.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package pagination
