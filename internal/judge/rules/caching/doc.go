// Package caching holds the rules that judge the clauses of the registry's
// caching area (internal/spec/registry/REVISION/caching.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package caching
