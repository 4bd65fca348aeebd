package serve

import (
	"encoding/json"
	"fmt"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// message is one JSON-RPC message as the diff aligns it: by direction,
// method (a response takes its request's) and id, the n-th occurrence of
// a key in one session with the n-th in the other.
type message struct {
	Line    int
	Key     string
	Payload string
}

// DiffRow is one aligned pair, or a message only one side has.
type DiffRow struct {
	Key          string
	LineA, LineB int // 0: the side has no such message
	Same         bool
}

// ClauseDiff is a clause whose outcome differs between the two sessions.
type ClauseDiff struct {
	ID, A, B string
}

// Diff is what differs between two sessions.
type Diff struct {
	A, B    *Session
	Rows    []DiffRow
	Same    int // aligned messages whose payloads are equal
	Clauses []ClauseDiff
}

// Compare aligns the messages of a and b and lists the clauses whose
// outcome differs. Rows keep a's order; b's messages without a match in
// a follow, in b's order.
func Compare(a, b *Session) *Diff {
	d := &Diff{A: a, B: b}
	ma, mb := messages(a.Events), messages(b.Events)
	byKey := map[string][]int{}
	for i, m := range mb {
		byKey[m.Key] = append(byKey[m.Key], i)
	}
	used := make([]bool, len(mb))
	for _, m := range ma {
		row := DiffRow{Key: m.Key, LineA: m.Line}
		if q := byKey[m.Key]; len(q) > 0 {
			j := q[0]
			byKey[m.Key] = q[1:]
			used[j] = true
			row.LineB, row.Same = mb[j].Line, equalBodies(m.Payload, mb[j].Payload)
		}
		d.add(row)
	}
	for j, m := range mb {
		if !used[j] {
			d.add(DiffRow{Key: m.Key, LineB: m.Line})
		}
	}
	d.Clauses = clauseDiffs(a, b)
	return d
}

func (d *Diff) add(r DiffRow) {
	if r.Same {
		d.Same++
		return
	}
	d.Rows = append(d.Rows, r)
}

func messages(events []trace.Event) []message {
	var out []message
	methodOf := map[string]string{} // request id (by direction) -> method
	for i := range events {
		e := &events[i]
		if e.Kind != trace.KindMessage {
			continue
		}
		var m struct {
			Method string          `json:"method"`
			ID     json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(e.Payload, &m)
		method := m.Method
		id := string(m.ID)
		switch {
		case method != "" && id != "":
			methodOf[string(e.Direction)+id] = method
		case method == "" && id != "":
			method = methodOf[string(opposite(e.Direction))+id] + " (response)"
		}
		out = append(out, message{Line: e.Line, Key: fmt.Sprintf("%s %s %s", e.Direction, method, id), Payload: string(e.Payload)})
	}
	return out
}

func opposite(d trace.Direction) trace.Direction {
	if d == trace.ClientToServer {
		return trace.ServerToClient
	}
	return trace.ClientToServer
}

// equalBodies compares two payloads as JSON values, so that key order and
// spacing do not count as a difference.
func equalBodies(a, b string) bool {
	if a == b {
		return true
	}
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return false
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}

func clauseDiffs(a, b *Session) []ClauseDiff {
	oa, ob := outcomes(a), outcomes(b)
	var out []ClauseDiff
	for _, id := range keysOf(oa, ob) {
		if oa[id] != ob[id] {
			out = append(out, ClauseDiff{ID: id, A: orNone(oa[id]), B: orNone(ob[id])})
		}
	}
	return out
}

func outcomes(s *Session) map[string]string {
	out := map[string]string{}
	if s.Report == nil {
		return out
	}
	for _, r := range s.Report.Runs {
		for _, c := range r.Clauses {
			out[c.Clause.ID] = string(c.Outcome)
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "not in the registry of this revision"
	}
	return s
}
