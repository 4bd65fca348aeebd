// Package resources holds the rules that judge the clauses of the registry's
// resources area (internal/spec/registry/REVISION/resources.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package resources
