// Package base holds the rules that judge the clauses of the registry's
// base area (internal/spec/registry/REVISION/base.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package base
