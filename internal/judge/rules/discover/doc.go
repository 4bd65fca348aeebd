// Package discover holds the rules that judge the clauses of the registry's
// discover area (internal/spec/registry/REVISION/discover.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package discover
