// Package subscriptions holds the rules that judge the clauses of the registry's
// subscriptions area (internal/spec/registry/REVISION/subscriptions.toml): each rule file registers its
// checks at init, and the judge package imports this folder.
package subscriptions
