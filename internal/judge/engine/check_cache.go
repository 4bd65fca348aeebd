package engine

import "unsafe"

// checkCache answers run.result without hashing: a check id is almost
// always a string constant, so its address names it, and a rule passes the
// same few ids message after message. A slot holds the id itself, so the
// address cannot be reused for another string while it is cached: a string
// at the same address and of the same length is the same text (strings do
// not change), and the cache tells ids apart without comparing their bytes.
//
// Each address maps to a set of two slots, the most recently used first:
// where constants happen to lie in the binary must not decide whether two
// hot ids keep evicting each other.
type checkCache [256]checkSet

// checkSet is the two slots an address maps to.
type checkSet [2]cachedCheck

type cachedCheck struct {
	id  string
	res *checkResult
}

func (c *checkCache) Set(id string) *checkSet {
	// Fibonacci hashing spreads addresses that differ only in high bits.
	addr := uint64(uintptr(unsafe.Pointer(unsafe.StringData(id))))
	return &c[(addr*0x9E3779B97F4A7C15)>>56]
}

func (e *cachedCheck) holds(id string) bool {
	return unsafe.StringData(e.id) == unsafe.StringData(id) && len(e.id) == len(id)
}

// first returns the result of id when it is its set's most recently used,
// or nil: the usual answer, small enough for run.result to inline.
func (c *checkCache) first(id string) *checkResult {
	if s := c.Set(id); s[0].holds(id) {
		return s[0].res
	}
	return nil
}

// second returns the result of id when its set's other slot holds it, and
// makes that slot the most recently used; nil otherwise.
func (c *checkCache) second(id string) *checkResult {
	s := c.Set(id)
	if !s[1].holds(id) {
		return nil
	}
	s[0], s[1] = s[1], s[0]
	return s[0].res
}

// Put makes id the most recently used of its set, dropping the other's
// older id.
func (c *checkCache) Put(id string, res *checkResult) {
	s := c.Set(id)
	s[1], s[0] = s[0], cachedCheck{id, res}
}
