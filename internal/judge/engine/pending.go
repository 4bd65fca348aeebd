package engine

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// pendingRequests holds a session's requests in flight, by sender and id:
// under each id, the newest heads the chain of those still in flight.
// Each sender's ids have a map of their own, keyed by the id alone, which
// a small map answers without hashing. A message's sender is the client or
// the server; any other party counts as the client, as partyIndex has it.
type pendingRequests struct {
	byParty [2]map[string]*message.Request
	// recent is the last answer given. The rules that judge a request ask,
	// one after another, whether its id is in flight, and the session asks
	// again to track it; the answer holds until the requests in flight
	// change, and is kept up to date when they do.
	recent pendingLookup
}

type pendingLookup struct {
	party int
	idKey string
	head  *message.Request
	known bool
}

// head returns the newest request in flight that from sent with idKey.
func (p *pendingRequests) head(from spec.Party, idKey string) *message.Request {
	party := PartyIndex(from)
	if l := &p.recent; l.known && l.party == party && l.idKey == idKey {
		return l.head
	}
	head := p.byParty[party][idKey]
	p.recent = pendingLookup{party, idKey, head, true}
	return head
}

// setHead makes r the newest request in flight that from sent with idKey;
// nil leaves none.
func (p *pendingRequests) setHead(from spec.Party, idKey string, r *message.Request) {
	party := PartyIndex(from)
	switch {
	case r == nil:
		delete(p.byParty[party], idKey)
	case p.byParty[party] == nil:
		p.byParty[party] = map[string]*message.Request{idKey: r}
	default:
		p.byParty[party][idKey] = r
	}
	p.recent = pendingLookup{party, idKey, r, true}
}

// Each calls fn for every request in flight.
func (p *pendingRequests) Each(fn func(*message.Request)) {
	for _, byID := range p.byParty {
		for _, head := range byID {
			for r := head; r != nil; r = r.Earlier {
				fn(r)
			}
		}
	}
}

// requestArena hands out Requests a block at a time. A Request is the
// largest allocation the judge makes for nearly every request, and is
// made of pointers the collector must be told of: one allocation per
// block costs far less than one per request. A block lives as long as any
// of its Requests, which nothing holds for long but the requests in
// flight.
type requestArena struct {
	free []message.Request
}

// requestBlock is how many Requests one allocation holds.
const requestBlock = 16

// next returns a Request as new.
func (a *requestArena) next() *message.Request {
	if len(a.free) == 0 {
		a.free = make([]message.Request, requestBlock)
	}
	r := &a.free[0]
	a.free = a.free[1:]
	return r
}
