// Package versioning holds the rules that judge the clauses of the registry's
// versioning area (internal/spec/registry/REVISION/versioning.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package versioning
