package listing

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// MethodNotFound is JSON-RPC's code for a method the receiver does not have.
const MethodNotFound = -32601

// Feature is what the tools, prompts and resources rules share: the server
// capability that declares the feature, its paginated list method, and the
// list_changed notification that announces a changed list.
type Feature struct {
	// name is the capability, the method prefix and the list result's
	// member: "tools", "prompts" or "resources".
	name string
	// methods is the prefix of the feature's methods, name and a slash;
	// list is its list method.
	methods, list string
	// key is the member that identifies a listed item: "name" or "uri".
	key string
	// listChanged is the notification that announces a changed list.
	listChanged string
	checks      FeatureChecks

	pages          *PagedList
	watch          listWatch
	listen         listenFilter
	declaredJudged bool
	// OnPage receives each page of the feature's list method.
	OnPage func(s *engine.Session, m *message.Msg, p ListPage)
	// collided holds the ids a client reused while a request under them was
	// still in flight: the judge cannot tell which request a response to
	// them answers, so it judges none.
	collided map[string]bool
}

// FeatureChecks names the checks a feature reports under; an empty id is
// not judged for that feature.
type FeatureChecks struct {
	Declared string // the server declares the capability of a feature it serves
	Answered string // a server that declared it answers the list method
	Changed  string // a changed list was announced by list_changed
	Order    string // an unchanged list comes in the same order
}

func NewFeature(name, key string, checks FeatureChecks) Feature {
	return Feature{name: name, methods: name + "/", list: name + "/list", key: key, listChanged: "notifications/" + name + "/list_changed", checks: checks, pages: NewPagedList(name)}
}

// Observe judges what every feature shares and reports whether m is done
// with: a list page (handed to onPage) or a response the judge cannot
// correlate.
func (f *Feature) Observe(s *engine.Session, m *message.Msg) bool {
	if !f.correlated(s, m) {
		return true
	}
	if s.Stateless() {
		// Only a 2026-07-28 session has listen streams for the filter to
		// follow: noticeExpected asks it nothing in any other.
		f.listen.Observe(m)
	}
	if m.From != spec.Server {
		return false
	}
	if m.Kind == message.KindNotification && m.Method == f.listChanged {
		f.watch.announce(s, f.checks.Changed)
	}
	if m.Request == nil || !strings.HasPrefix(m.Request.Method, f.methods) {
		return false
	}
	return f.observeResponse(s, m)
}

// observeResponse judges a server's response to one of the feature's
// methods, and hands a list page to onPage.
func (f *Feature) observeResponse(s *engine.Session, m *message.Msg) bool {
	if m.Kind == message.KindResult {
		f.judgeDeclared(s, m)
	}
	if m.Request.Method != f.list {
		return false
	}
	p, ok := f.judgeAnswered(s, m)
	if !ok {
		return false
	}
	if p.Complete {
		p.Keys = f.listingKeys(p.all)
		f.judgeChange(s, m, p.all, p.Keys)
	}
	f.OnPage(s, m, p)
	return true
}

// correlated reports whether m can be judged as what it seems: not a
// response to an id the client used twice at once.
func (f *Feature) correlated(s *engine.Session, m *message.Msg) bool {
	switch {
	case m.Kind == message.KindRequest && m.From == spec.Client && s.Pending(spec.Client, m.IDKey) != nil:
		if f.collided == nil {
			f.collided = map[string]bool{}
		}
		f.collided[m.IDKey] = true
	case len(f.collided) > 0 && m.Request != nil && m.Request.From == spec.Client && f.collided[m.Request.IDKey]:
		delete(f.collided, m.Request.IDKey)
		return false
	}
	return true
}

// judgeDeclared holds a server that answers the feature's methods with
// results to its declaration of the capability, once per session.
func (f *Feature) judgeDeclared(s *engine.Session, m *message.Msg) {
	if f.declaredJudged || !engine.CapabilitiesKnown(s, "server."+f.name) {
		return
	}
	f.declaredJudged = true
	s.Expect(f.checks.Declared, s.ServerCaps.Has(f.name), spec.Server, m.Event,
		"the server answered %q with a result but did not declare the %s capability", m.Request.Method, f.name)
}

// judgeAnswered holds a server that declared the capability to answering
// the list method with the list.
func (f *Feature) judgeAnswered(s *engine.Session, m *message.Msg) (ListPage, bool) {
	declared := f.checks.Answered != "" && s.ServerCaps.Has(f.name)
	if m.Kind == message.KindError {
		// Only method-not-found denies the list; another error (a bad
		// cursor, a passing failure) neither shows nor breaks the rule.
		if code, _ := m.Error.IntCode(); declared && code == MethodNotFound {
			s.Fail(f.checks.Answered, spec.Server, m.Event,
				"the server declared the %s capability but answered %q with error %d (method not found)", f.name, m.Request.Method, code)
		}
		return ListPage{}, false
	}
	p, ok := f.pages.Add(m)
	switch {
	case declared && ok:
		s.Pass(f.checks.Answered, spec.Server)
	case declared:
		s.Fail(f.checks.Answered, spec.Server, m.Event, "the %q result carries no %q array", m.Request.Method, f.name)
	}
	return p, ok
}

// judgeChange compares a whole listing, its items and their keys, with the
// previous one.
func (f *Feature) judgeChange(s *engine.Session, m *message.Msg, items []json.RawMessage, keys []string) {
	prev, seen, announced := f.watch.next(items, keys)
	if !seen {
		return
	}
	if change := describeChange(prev, keys); change != "" {
		if f.noticeExpected(s) {
			f.watch.changed(s, f.checks.Changed, announced, m, change)
		}
		return
	}
	if f.checks.Order == "" {
		return
	}
	if i := firstDifference(prev, keys); i >= 0 {
		s.Fail(f.checks.Order, spec.Server, m.Event,
			"%q listed the same %s in another order: position %d holds %s, earlier %s", m.Request.Method, f.name, i, quoteKey(keys, i), quoteKey(prev, i))
	} else {
		s.Pass(f.checks.Order, spec.Server)
	}
}

// noticeExpected reports whether the server owes this client a list_changed
// notification: it declared listChanged, and under 2026-07-28 the client
// also holds a subscriptions/listen stream that asked for it.
func (f *Feature) noticeExpected(s *engine.Session) bool {
	if !s.ServerCaps.Has(f.name + ".listChanged") {
		return false
	}
	return !s.Stateless() || f.listen.wants(f.name+"ListChanged")
}

// Finish reports the changes no notification announced.
func (f *Feature) Finish(s *engine.Session) { f.watch.Finish(s, f.checks.Changed, f.name) }

// listingKeys returns the keys of a whole listing: the previous listing's
// keys themselves when the items carry the same keys in the same order, as
// a server that has not changed its list repeats it, so that such a listing
// builds nothing. Items the same to the byte as the previous listing's
// carry its keys without a look inside them.
func (f *Feature) listingKeys(items []json.RawMessage) []string {
	w := &f.watch
	if w.seen && (sameItems(w.prevItems, items) || sameItemKeys(w.prev, items, f.key)) {
		return w.prev
	}
	return ItemKeys(items, f.key)
}

// PageKeys returns the key member of each item of a page: a page that
// ended a whole listing had them read with the listing's, whose last items
// are the page's.
func (f *Feature) PageKeys(p ListPage) []string {
	if p.Complete {
		return p.Keys[len(p.all)-len(p.Items):]
	}
	return ItemKeys(p.Items, f.key)
}

// sameItems reports whether two listings hold the same items, byte for byte.
func sameItems(a, b []json.RawMessage) bool {
	return slices.EqualFunc(a, b, func(x, y json.RawMessage) bool { return bytes.Equal(x, y) })
}

// sameItemKeys reports whether itemKeys(items, key) would equal keys.
func sameItemKeys(keys []string, items []json.RawMessage, key string) bool {
	if len(keys) != len(items) {
		return false
	}
	for i, it := range items {
		if !stringFieldIs(it, key, keys[i]) {
			return false
		}
	}
	return true
}

// stringFieldIs reports whether stringField(obj, name), "" when it is not a
// string, is want; a plainly written string is compared where it stands.
func stringFieldIs(obj json.RawMessage, name, want string) bool {
	raw := message.ObjectMember(obj, name)
	if text, ok := message.PlainString(raw); ok {
		return string(text) == want
	}
	got, _ := message.JSONString(raw)
	return got == want
}

// ItemKeys reads the identifying member of each listed item. The keys are
// spelled one after another into a single string and handed out as parts
// of it: one allocation for the listing rather than one per item.
func ItemKeys(items []json.RawMessage, key string) []string {
	out := make([]string, len(items))
	var room [512]byte
	spelled := room[:0] // on the stack while the keys fit
	ends := make([]int, 0, 16)
	for _, it := range items {
		spelled = appendStringField(spelled, it, key)
		ends = append(ends, len(spelled))
	}
	all, start := string(spelled), 0
	for i, end := range ends {
		out[i], start = all[start:end], end
	}
	return out
}

// appendStringField appends stringField(obj, name), "" when it is not a
// string, to dst; a plainly written string is copied as it stands.
func appendStringField(dst []byte, obj json.RawMessage, name string) []byte {
	raw := message.ObjectMember(obj, name)
	if text, ok := message.PlainString(raw); ok {
		return append(dst, text...)
	}
	s, _ := message.JSONString(raw)
	return append(dst, s...)
}

func firstDifference(a, b []string) int {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	if len(b) > len(a) {
		return len(a)
	}
	return -1
}

func quoteKey(keys []string, i int) string {
	if i < 0 || i >= len(keys) {
		return "nothing"
	}
	return message.QuoteJSON(keys[i])
}
