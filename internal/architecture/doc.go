// Package architecture holds no code: its test keeps the import graph in
// the layers docs/architecture.md describes, so that a package never
// imports one above it.
package architecture
