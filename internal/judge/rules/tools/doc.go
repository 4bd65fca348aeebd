// Package tools holds the rules that judge the clauses of the registry's
// tools area (internal/spec/registry/REVISION/tools.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package tools
