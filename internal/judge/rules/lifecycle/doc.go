// Package lifecycle holds the rules that judge the clauses of the registry's
// lifecycle area (internal/spec/registry/REVISION/lifecycle.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package lifecycle
