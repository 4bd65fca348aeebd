// Package elicitation holds the rules that judge the clauses of the registry's
// elicitation area (internal/spec/registry/REVISION/elicitation.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package elicitation
