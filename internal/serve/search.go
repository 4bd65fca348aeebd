package serve

import (
	"sort"
	"strconv"
	"strings"

	"github.com/mcpverdict/mcpverdict/reporters"
)

// Hit is one message or finding a search matched.
type Hit struct {
	Session int
	Line    int
	// What says what matched: the message's method and id, or the clause.
	What string
	Text string
}

// maxHits caps the hits listed per session; the count says how many more.
const maxHits = 200

// SessionHits are the hits of one session.
type SessionHits struct {
	Session *Session
	Index   int
	Hits    []Hit
	More    int
}

// Search finds q (case-folded) in the sessions' methods, ids, clause ids
// and finding text, and in the messages' text.
func Search(sessions []*Session, q string) []SessionHits {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return nil
	}
	var out []SessionHits
	for i, s := range sessions {
		if s.Report == nil {
			continue
		}
		sh := SessionHits{Session: s, Index: i}
		note := func(h Hit) {
			if len(sh.Hits) < maxHits {
				sh.Hits = append(sh.Hits, h)
			} else {
				sh.More++
			}
		}
		for _, r := range s.Report.Runs {
			for _, c := range r.Clauses {
				id := reporters.ClauseRuleID(c.Clause)
				for _, f := range c.Findings {
					if contains(id, q) || contains(f.Message, q) {
						note(Hit{Session: i, Line: f.Line, What: id, Text: f.Message})
					}
				}
			}
		}
		for _, m := range messages(s.Events) {
			if contains(m.Key, q) || contains(m.Payload, q) || strconv.Itoa(m.Line) == q {
				note(Hit{Session: i, Line: m.Line, What: m.Key, Text: clip(m.Payload, 300)})
			}
		}
		if len(sh.Hits) > 0 {
			out = append(out, sh)
		}
	}
	return out
}

func contains(s, q string) bool { return strings.Contains(strings.ToLower(s), q) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func keysOf(ms ...map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}
