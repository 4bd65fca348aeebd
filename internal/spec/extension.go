package spec

import "slices"

// Extensions lists the optional extensions whose clauses a registry may
// hold. Their clauses are judged like any other, but a report counts them
// in its verdict only when the extension is asked for.
var Extensions = []string{"tasks"}

// KnownExtension reports whether name is an extension this build judges.
func KnownExtension(name string) bool { return slices.Contains(Extensions, name) }
