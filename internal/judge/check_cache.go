package judge

import "unsafe"

// checkCache answers run.result without hashing: a check id is almost
// always a string constant, so its address names it, and a rule passes the
// same few ids message after message. A slot holds the id itself, so the
// address cannot be reused for another string while it is cached.
//
// Each address maps to a set of two slots, the most recently used first:
// where constants happen to lie in the binary must not decide whether two
// hot ids keep evicting each other.
type checkCache [256][2]cachedCheck

type cachedCheck struct {
	id  string
	res *checkResult
}

func (c *checkCache) set(id string) *[2]cachedCheck {
	// Fibonacci hashing spreads addresses that differ only in high bits.
	addr := uint64(uintptr(unsafe.Pointer(unsafe.StringData(id))))
	return &c[(addr*0x9E3779B97F4A7C15)>>56]
}

func (e *cachedCheck) holds(id string) bool {
	return unsafe.StringData(e.id) == unsafe.StringData(id) && e.id == id
}

// get returns the cached result of id, or nil.
func (c *checkCache) get(id string) *checkResult {
	s := c.set(id)
	if s[0].holds(id) {
		return s[0].res
	}
	if s[1].holds(id) {
		s[0], s[1] = s[1], s[0]
		return s[0].res
	}
	return nil
}

// put makes id the most recently used of its set, dropping the other's
// older id.
func (c *checkCache) put(id string, res *checkResult) {
	s := c.set(id)
	s[1], s[0] = s[0], cachedCheck{id, res}
}
