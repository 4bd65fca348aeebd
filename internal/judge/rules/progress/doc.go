// Package progress holds the rules that judge the clauses of the registry's
// progress area (internal/spec/registry/REVISION/progress.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package progress
