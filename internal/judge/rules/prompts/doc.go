// Package prompts holds the rules that judge the clauses of the registry's
// prompts area (internal/spec/registry/REVISION/prompts.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package prompts
