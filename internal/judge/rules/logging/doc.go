// Package logging holds the rules that judge the clauses of the registry's
// logging area (internal/spec/registry/REVISION/logging.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package logging
