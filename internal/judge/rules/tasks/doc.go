// Package tasks holds the rules that judge the clauses of the registry's
// tasks area (internal/spec/registry/REVISION/tasks.toml), the experimental
// tasks extension: each rule file registers its checks at init, and the
// judge package imports this folder.
package tasks
