package message

import "unsafe"

// keyBlocks holds the text of the keys idKeys builds, many to a block: a
// request's id is new on every request, and a string of its own for each
// cost an allocation apiece. A block's bytes are written once, as each
// key is built, and never again, so the strings that alias them stay as
// they were built. A block lives while any key in it does; the keys kept
// past their messages are those of requests in flight and the string ids
// a session has used.
type keyBlocks struct {
	block []byte
}

const (
	keyBlockSize = 4 << 10
	// A key longer than this is built as a string of its own, so that one
	// long id does not leave most of a block unused.
	keyBlockLong = keyBlockSize / 16
)

// join returns prefix followed by text, as a string.
func (k *keyBlocks) join(prefix string, text []byte) string {
	n := len(prefix) + len(text)
	if n == 0 || n > keyBlockLong {
		return prefix + string(text)
	}
	if cap(k.block)-len(k.block) < n {
		k.block = make([]byte, 0, keyBlockSize)
	}
	start := len(k.block)
	k.block = append(append(k.block, prefix...), text...)
	return unsafe.String(&k.block[start], n)
}
