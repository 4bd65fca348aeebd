// Package roots holds the rules that judge the clauses of the registry's
// roots area (internal/spec/registry/REVISION/roots.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package roots
