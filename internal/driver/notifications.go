package driver

import (
	"encoding/json"
	"sync"
)

// arrivals counts the notifications each key (a progress token, a
// subscription id) received and lets a step wait for the first one: the
// evidence a call is really in flight before the driver cancels it, or that
// a subscription was acknowledged.
type arrivals struct {
	mu     sync.Mutex
	counts map[string]int
	first  map[string]chan struct{}
}

func newArrivals() *arrivals {
	return &arrivals{counts: map[string]int{}, first: map[string]chan struct{}{}}
}

// arrived returns a channel closed when key's first notification arrives.
func (a *arrivals) arrived(key string) <-chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.firstLocked(key)
}

func (a *arrivals) firstLocked(key string) chan struct{} {
	ch, ok := a.first[key]
	if !ok {
		ch = make(chan struct{})
		a.first[key] = ch
	}
	return ch
}

func (a *arrivals) count(key string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.counts[key]
}

func (a *arrivals) record(key string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.counts[key]++
	if a.counts[key] == 1 {
		close(a.firstLocked(key))
	}
}

// notified routes the notifications the driver waits on: progress by token,
// subscription acknowledgements by subscription id.
func (d *run) notified(method string, params json.RawMessage) {
	switch method {
	case "notifications/progress":
		var p struct {
			Token json.RawMessage `json:"progressToken"`
		}
		if json.Unmarshal(params, &p) == nil && p.Token != nil {
			d.progress.record(tokenKey(p.Token))
		}
	case "notifications/subscriptions/acknowledged":
		var p struct {
			Meta struct {
				ID json.RawMessage `json:"io.modelcontextprotocol/subscriptionId"`
			} `json:"_meta"`
		}
		if json.Unmarshal(params, &p) == nil && p.Meta.ID != nil {
			d.acks.record(tokenKey(p.Meta.ID))
		}
	}
}

// tokenKey names a progress token the way progressToken spells it: a
// string token by its text, any other by its JSON.
func tokenKey(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
