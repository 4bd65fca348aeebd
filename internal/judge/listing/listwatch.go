package listing

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// maxUnannounced bounds the list changes a rule remembers while it waits
// for the notification that announces them.
const maxUnannounced = 16

// listWatch remembers the previous whole listing of a list method and the
// changes between listings that no list_changed notification announced yet.
type listWatch struct {
	// prev holds the keys of the previous listing's items, prevItems the
	// items themselves.
	prev      []string
	prevItems []json.RawMessage
	seen      bool
	// announced is set by a list_changed notification since the previous
	// listing.
	announced bool
	pending   []unannounced
}

type unannounced struct {
	ev     *trace.Event
	change string
}

// next records a whole listing and returns the previous one's keys, whether
// there was one, and whether a notification came in between.
func (w *listWatch) next(items []json.RawMessage, keys []string) (prev []string, seen, announced bool) {
	prev, seen, announced = w.prev, w.seen, w.announced
	w.prev, w.prevItems, w.seen, w.announced = keys, items, true, false
	return prev, seen, announced
}

// changed records a change between two listings: announced already, it
// passes; otherwise it waits for a notification until the trace ends.
func (w *listWatch) changed(s *engine.Session, check string, announced bool, m *message.Msg, change string) {
	if announced {
		s.Pass(check, spec.Server)
		return
	}
	if len(w.pending) < maxUnannounced {
		w.pending = append(w.pending, unannounced{m.Event, change})
	}
}

// announce records a list_changed notification: it announces every change
// seen so far, even one the client noticed by listing first.
func (w *listWatch) announce(s *engine.Session, check string) {
	for range w.pending {
		s.Pass(check, spec.Server)
	}
	w.pending, w.announced = nil, true
}

func (w *listWatch) Finish(s *engine.Session, check, noun string) {
	for _, u := range w.pending {
		s.Fail(check, spec.Server, u.ev, "the %s list changed (%s) and the server, which declared listChanged, sent no notifications/%s/list_changed",
			noun, u.change, noun)
	}
}

// describeChange says how two listings differ as sets, or "" when they hold
// the same items.
func describeChange(prev, keys []string) string {
	if slices.Equal(prev, keys) {
		return "" // the usual listing: the same items in the same order
	}
	added, removed := difference(keys, prev), difference(prev, keys)
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "added "+quoteSome(added))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed "+quoteSome(removed))
	}
	return strings.Join(parts, ", ")
}

// difference lists the items of a that b lacks, counting repeats.
func difference(a, b []string) []string {
	count := map[string]int{}
	for _, k := range b {
		count[k]++
	}
	var out []string
	for _, k := range a {
		if count[k] > 0 {
			count[k]--
			continue
		}
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func quoteSome(keys []string) string {
	const most = 3
	quoted := make([]string, 0, most)
	for i, k := range keys {
		if i == most {
			return fmt.Sprintf("%s and %d more", strings.Join(quoted, ", "), len(keys)-most)
		}
		quoted = append(quoted, message.QuoteJSON(k))
	}
	return strings.Join(quoted, ", ")
}
