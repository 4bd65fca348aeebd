package judge

import (
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Most rules judge a few methods and return at once from every other
// message; calling each of them for every message was a tenth of the
// judge's work. A rule says in its RuleSpec (Sees) which messages it
// judges, and the engine calls it for those alone. A rule that says
// nothing sees every message.

// sight describes some of the messages a rule judges: those that meet
// every condition it sets. A zero field sets no condition.
type sight struct {
	kinds kindSet
	from  spec.Party
	// methods holds the message's method or, for a response, the method of
	// the request it answers. A sight that names methods sees no response
	// to a request the session does not know.
	methods   []string
	transport trace.Transport
	// inputRound: only a server's result that may be an InputRequiredResult
	// and a client's request that may be a retry carrying its answers (see
	// askTracker.observe).
	inputRound bool
	// sessions: only messages of these sessions.
	sessions sessionScope
}

// kindSet is a set of message kinds.
type kindSet uint8

const (
	invalidMsgs      kindSet = 1 << KindInvalid
	requestMsgs      kindSet = 1 << KindRequest
	notificationMsgs kindSet = 1 << KindNotification
	resultMsgs       kindSet = 1 << KindResult
	errorMsgs        kindSet = 1 << KindError
	responseMsgs             = resultMsgs | errorMsgs
	// wellFormedMsgs are the messages of every kind but invalid.
	wellFormedMsgs = requestMsgs | notificationMsgs | responseMsgs
)

// sees is a sight on the messages of kinds a party sends ("" for either),
// with one of methods when any are given.
func sees(kinds kindSet, from spec.Party, methods ...string) sight {
	return sight{kinds: kinds, from: from, methods: methods}
}

// askSights are the messages an askTracker of method reads: the server's
// requests of method and the client's answers to them, and the results and
// retries that may carry an input round.
func askSights(method string) []sight {
	return []sight{
		sees(requestMsgs, spec.Server, method),
		sees(responseMsgs, spec.Client, method),
		{kinds: resultMsgs, from: spec.Server, inputRound: true},
		{kinds: requestMsgs, from: spec.Client, inputRound: true},
	}
}

// featureSights are the messages a feature's observe reads: every client
// request (for ids used twice) and response, its list_changed, and the
// notifications a listen stream's filter follows.
func featureSights(name string) []sight {
	return []sight{
		sees(requestMsgs, spec.Client),
		sees(responseMsgs, ""),
		sees(notificationMsgs, "", "notifications/"+name+"/list_changed",
			"notifications/subscriptions/acknowledged", "notifications/cancelled"),
	}
}

// capabilitySights are the requests and notifications a capability gates.
func capabilitySights() []sight {
	return []sight{
		sees(requestMsgs, "", sortedKeysOf(requestGates)...),
		sees(notificationMsgs, "", sortedKeysOf(notificationGates)...),
	}
}

// msgClass is what the engine knows of a message before any rule reads
// it, all that a sight asks: its kind, sender, transport, input round hint
// and method (an index into sightMethods).
type msgClass uint32

const (
	classKind       msgClass = 7 // the MsgKind
	classFromServer msgClass = 1 << 3
	classStdio      msgClass = 1 << 4
	classHTTP       msgClass = 1 << 5
	classInputRound msgClass = 1 << 6
	classMethodBit           = 8
)

// sightMethods numbers the methods any sight names, from 1; every other
// method is 0. sightOfWire is the same number by the method's number among
// wireMethods. Filled at init, read-only after.
var (
	sightMethods    = map[string]uint8{}
	sightMethodName = []string{""}
	sightOfWire     [0x100]uint8
)

func noteSightMethods(sights []sight) {
	for _, sg := range sights {
		for _, name := range sg.methods {
			if _, known := sightMethods[name]; known {
				continue
			}
			if len(sightMethodName) > 0xff {
				panic("judge: too many methods in sights for msgClass")
			}
			sightMethods[name] = uint8(len(sightMethodName))
			if num, ok := wireNumbers[`"`+name+`"`]; ok {
				sightOfWire[num] = sightMethods[name]
			}
			sightMethodName = append(sightMethodName, name)
		}
	}
}

func classOf(m *Msg) msgClass {
	c := msgClass(m.Kind)
	if m.From == spec.Server {
		c |= classFromServer
	}
	switch m.Event.Transport {
	case trace.Stdio:
		c |= classStdio
	case trace.StreamableHTTP:
		c |= classHTTP
	}
	if mayCarryInputRound(m) {
		c |= classInputRound
	}
	return c | msgClass(classMethod(m))<<classMethodBit
}

// classMethod is the sight number of the method a sight matches m by.
func classMethod(m *Msg) uint8 {
	if m.Kind != KindResult && m.Kind != KindError {
		return sightMethod(m.Method, m.methodNum)
	}
	if m.Request == nil {
		return 0
	}
	return sightMethod(m.Request.Method, m.Request.methodNum)
}

// sightMethod is the sight number of a method, by its number among
// wireMethods when it has one.
func sightMethod(name string, wireNum uint8) uint8 {
	if wireNum != 0 {
		return sightOfWire[wireNum]
	}
	return sightMethods[name]
}

// mayCarryInputRound is whether an askTracker could find asks or replies in
// m beyond those of its own method's requests and responses.
func mayCarryInputRound(m *Msg) bool {
	switch {
	case m.Kind == KindResult && m.From == spec.Server:
		return m.Request != nil && m.mayBeInputRequired()
	case m.Kind == KindRequest && m.From == spec.Client:
		return m.mayBeRetry()
	}
	return false
}

// takes reports whether the sight sees the messages of class c in a session.
func (sg *sight) takes(c msgClass, stateless bool) bool {
	transport := trace.Transport("")
	switch {
	case c&classStdio != 0:
		transport = trace.Stdio
	case c&classHTTP != 0:
		transport = trace.StreamableHTTP
	}
	return sg.sessions.judges(stateless) &&
		(sg.kinds == 0 || sg.kinds&(1<<(c&classKind)) != 0) &&
		(sg.from == "" || (sg.from == spec.Server) == (c&classFromServer != 0)) &&
		(sg.transport == "" || sg.transport == transport) &&
		(!sg.inputRound || c&classInputRound != 0) &&
		(sg.methods == nil || slices.Contains(sg.methods, sightMethodName[c>>classMethodBit]))
}

// judges reports whether the rule of rs judges the messages of class c in
// a session.
func (rs *RuleSpec) judges(c msgClass, stateless bool) bool {
	if !rs.Messages.judges(stateless) {
		return false
	}
	if rs.Sees == nil {
		return true
	}
	for i := range rs.Sees {
		if rs.Sees[i].takes(c, stateless) {
			return true
		}
	}
	return false
}

// dispatchTable holds, for each class of message a session has seen, the
// session's rules that judge it, in the order they were registered. Each
// class keeps a slice, so a registry may hold any number of rules.
type dispatchTable map[msgClass][]Rule

// judging returns the rules of a session that judge m.
func (d *dispatchTable) judging(s *Session, m *Msg) []Rule {
	c := classOf(m)
	if rules, ok := (*d)[c]; ok {
		return rules
	}
	if *d == nil {
		*d = dispatchTable{}
	}
	rules := judgingClass(ruleSpecs, s.rules, c, s.Stateless(), s.run.everyRule)
	(*d)[c] = rules
	return rules
}

// judgingClass picks, of rules, made from specs in their order, those that
// judge the messages of class c. With every, it picks each rule that
// judges the session's messages whatever its Sees: the reference the Sees
// are held to (Options.everyRule), chosen where a class is first met so
// that the call of each message's rules tests nothing for it.
func judgingClass(specs []RuleSpec, rules []Rule, c msgClass, stateless, every bool) []Rule {
	var out []Rule
	for i := range specs {
		judges := specs[i].judges(c, stateless)
		if every {
			judges = specs[i].Messages.judges(stateless)
		}
		if judges {
			out = append(out, rules[i])
		}
	}
	return out
}
