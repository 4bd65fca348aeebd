package engine

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Rule watches one session's events and reports under the checks it owns.
// The engine makes a fresh Rule per session, so a rule keeps whatever
// per-session state it needs in its own fields. Rules see each message
// before the session's state moves past it.
type Rule interface {
	Message(s *Session, m *message.Msg)
	HTTP(s *Session, ev *trace.Event)
	Lifecycle(s *Session, ev *trace.Event)
	// End runs once when the trace ends.
	End(s *Session)
}

// BaseRule gives a rule no-op methods to override.
type BaseRule struct{}

// Message does nothing.
func (BaseRule) Message(*Session, *message.Msg) {}

// HTTP does nothing.
func (BaseRule) HTTP(*Session, *trace.Event) {}

// Lifecycle does nothing.
func (BaseRule) Lifecycle(*Session, *trace.Event) {}

// End does nothing.
func (BaseRule) End(*Session) {}

// Check is one named test a rule performs; clauses of the registry name it.
type Check struct {
	ID      string
	Summary string
}

// RuleSpec declares a rule: the checks it reports under and its constructor.
type RuleSpec struct {
	Checks []Check
	New    func() Rule
	// Messages says whose messages the rule judges: a rule that judges
	// only the sessions of one kind of revision says so, and the engine
	// does not call its Message for the others (about a third of the rules,
	// each called for every message).
	Messages sessionScope
	// Sees lists the messages the rule judges, when its Message returns
	// at once from every other (see sight); nil means every message.
	Sees []Sight
}

// sessionScope names the sessions whose messages a rule judges.
type sessionScope uint8

const (
	// everySession is the default.
	everySession sessionScope = iota
	// statelessOnly: 2026-07-28 sessions, which have no handshake; the
	// rule's Message returns at once in any other.
	StatelessOnly
	// handshakeOnly: sessions that begin with initialize; the rule's
	// Message returns at once in a stateless one.
	HandshakeOnly
)

// Judges reports whether a rule of scope judges the messages of a session.
func (scope sessionScope) Judges(stateless bool) bool {
	return scope == everySession || (scope == StatelessOnly) == stateless
}

var (
	RuleSpecs []RuleSpec
	checkByID = map[string]Check{}
	// checkFolder is the folder of the file that registered each check.
	checkFolder = map[string]string{}
)

// Register adds a rule at init time; a check id owned twice is a build defect.
func Register(rs RuleSpec) {
	_, file, _, _ := runtime.Caller(1)
	for _, c := range rs.Checks {
		checkFolder[c.ID] = filepath.Dir(file)
		if _, dup := checkByID[c.ID]; dup {
			panic(fmt.Sprintf("judge: check %q registered twice", c.ID))
		}
		checkByID[c.ID] = c
	}
	NoteSightMethods(rs.Sees)
	RuleSpecs = append(RuleSpecs, rs)
}

// Checks lists every implemented check, sorted by id.
func Checks() []Check {
	out := make([]Check, 0, len(checkByID))
	for _, c := range checkByID {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ChecksIn lists the checks registered by the rule files of folder, sorted
// by id: a rule folder's own test judges the corpus for them.
func ChecksIn(folder string) []Check {
	var out []Check
	for _, c := range Checks() {
		if checkFolder[c.ID] == folder {
			out = append(out, c)
		}
	}
	return out
}

// HasCheck reports whether id names an implemented check.
func HasCheck(id string) bool { _, ok := checkByID[id]; return ok }

// newRules makes a session's rules, in the order of ruleSpecs.
func newRules() []Rule {
	rules := make([]Rule, len(RuleSpecs))
	for i, rs := range RuleSpecs {
		rules[i] = rs.New()
	}
	return rules
}
