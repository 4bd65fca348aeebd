package spec

import "strings"

// Revision names a revision of the specification by the date it was
// published, written as the wire and the reports write it ("2025-11-25").
// Code that asks whether one revision came before another asks it here,
// not of the strings.
type Revision string

// FirstStateless is the first revision whose sessions have no initialize
// handshake: each request carries its revision and the client's
// capabilities in its _meta.
const FirstStateless Revision = "2026-07-28"

// Compare orders revisions by date: negative when r came before o, zero
// when they are the same, positive when r came after. A revision's name is
// its date written YYYY-MM-DD, whose text sorts as the calendar does, so
// the names are compared as they stand; a name that is no such date (a
// peer may send anything) takes its place among the others by its text.
func (r Revision) Compare(o Revision) int { return strings.Compare(string(r), string(o)) }

// Before reports whether r came before o.
func (r Revision) Before(o Revision) bool { return r.Compare(o) < 0 }

// AtLeast reports whether r is o or came after it.
func (r Revision) AtLeast(o Revision) bool { return r.Compare(o) >= 0 }

// Stateless reports whether sessions of r have no initialize handshake.
func (r Revision) Stateless() bool { return r.AtLeast(FirstStateless) }
