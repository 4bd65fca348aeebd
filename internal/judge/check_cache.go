package judge

import "unsafe"

// checkCache answers run.result without hashing: a check id is almost
// always a string constant, so its address names it, and a rule passes the
// same few ids message after message. A slot holds the id itself, so the
// address cannot be reused for another string while it is cached.
type checkCache [256]struct {
	id  string
	res *checkResult
}

func (c *checkCache) slot(id string) int {
	return int(uintptr(unsafe.Pointer(unsafe.StringData(id)))>>3) & (len(c) - 1)
}

// get returns the cached result of id, or nil.
func (c *checkCache) get(id string) *checkResult {
	e := &c[c.slot(id)]
	if unsafe.StringData(e.id) == unsafe.StringData(id) && e.id == id {
		return e.res
	}
	return nil
}

func (c *checkCache) put(id string, res *checkResult) {
	c[c.slot(id)] = struct {
		id  string
		res *checkResult
	}{id, res}
}
