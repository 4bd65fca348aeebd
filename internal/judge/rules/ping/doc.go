// Package ping holds the rules that judge the clauses of the registry's
// ping area (internal/spec/registry/REVISION/ping.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package ping
