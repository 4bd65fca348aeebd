// Package message is the judge's view of one JSON-RPC message: its kind, id,
// method and the members of its params and result, read lazily from bytes the
// trace reader has checked, and the store that lends a run its messages.
package message
