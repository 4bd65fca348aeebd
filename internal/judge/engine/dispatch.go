package engine

import (
	"slices"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Most rules judge a few methods and return at once from every other
// message; calling each of them for every message was a tenth of the
// judge's work. A rule says in its RuleSpec (Sees) which messages it
// judges, and the engine calls it for those alone. A rule that says
// nothing sees every message.

// Sight describes some of the messages a rule judges: those that meet
// every condition it sets. A zero field sets no condition.
type Sight struct {
	Kinds kindSet
	From  spec.Party
	// Methods holds the message's method or, for a response, the method of
	// the request it answers. A sight that names methods sees no response
	// to a request the session does not know.
	Methods   []string
	Transport trace.Transport
	// inputRound: only a server's result that may be an InputRequiredResult
	// and a client's request that may be a retry carrying its answers (see
	// askTracker.observe).
	InputRound bool
	// sessions: only messages of these sessions.
	Sessions sessionScope
}

// kindSet is a set of message kinds.
type kindSet uint8

const (
	InvalidMsgs      kindSet = 1 << message.KindInvalid
	RequestMsgs      kindSet = 1 << message.KindRequest
	NotificationMsgs kindSet = 1 << message.KindNotification
	ResultMsgs       kindSet = 1 << message.KindResult
	ErrorMsgs        kindSet = 1 << message.KindError
	ResponseMsgs             = ResultMsgs | ErrorMsgs
	// WellFormedMsgs are the messages of every kind but invalid.
	WellFormedMsgs = RequestMsgs | NotificationMsgs | ResponseMsgs
)

// Sees is a sight on the messages of kinds a party sends ("" for either),
// with one of methods when any are given.
func Sees(kinds kindSet, from spec.Party, methods ...string) Sight {
	return Sight{Kinds: kinds, From: from, Methods: methods}
}

// AskSights are the messages an askTracker of method reads: the server's
// requests of method and the client's answers to them, and the results and
// retries that may carry an input round.
func AskSights(method string) []Sight {
	return []Sight{
		Sees(RequestMsgs, spec.Server, method),
		Sees(ResponseMsgs, spec.Client, method),
		{Kinds: ResultMsgs, From: spec.Server, InputRound: true},
		{Kinds: RequestMsgs, From: spec.Client, InputRound: true},
	}
}

// FeatureSights are the messages a feature's observe reads: every client
// request (for ids used twice) and response, its list_changed, and the
// notifications a listen stream's filter follows.
func FeatureSights(name string) []Sight {
	return []Sight{
		Sees(RequestMsgs, spec.Client),
		Sees(ResponseMsgs, ""),
		Sees(NotificationMsgs, "", "notifications/"+name+"/list_changed",
			"notifications/subscriptions/acknowledged", "notifications/cancelled"),
	}
}

// CapabilitySights are the requests and notifications a capability gates.
func CapabilitySights() []Sight {
	return []Sight{
		Sees(RequestMsgs, "", SortedKeysOf(RequestGates)...),
		Sees(NotificationMsgs, "", SortedKeysOf(NotificationGates)...),
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

func NoteSightMethods(sights []Sight) {
	for _, sg := range sights {
		for _, name := range sg.Methods {
			if _, known := sightMethods[name]; known {
				continue
			}
			if len(sightMethodName) > 0xff {
				panic("judge: too many methods in sights for msgClass")
			}
			sightMethods[name] = uint8(len(sightMethodName))
			if num, ok := message.WireNumbers[`"`+name+`"`]; ok {
				sightOfWire[num] = sightMethods[name]
			}
			sightMethodName = append(sightMethodName, name)
		}
	}
}

func ClassOf(m *message.Msg) msgClass {
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
func classMethod(m *message.Msg) uint8 {
	if m.Kind != message.KindResult && m.Kind != message.KindError {
		return sightMethod(m.Method, m.MethodNum)
	}
	if m.Request == nil {
		return 0
	}
	return sightMethod(m.Request.Method, m.Request.MethodNum)
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
func mayCarryInputRound(m *message.Msg) bool {
	switch {
	case m.Kind == message.KindResult && m.From == spec.Server:
		return m.Request != nil && m.MayBeInputRequired()
	case m.Kind == message.KindRequest && m.From == spec.Client:
		return m.MayBeRetry()
	}
	return false
}

// Takes reports whether the sight sees the messages of class c in a session.
func (sg *Sight) Takes(c msgClass, stateless bool) bool {
	transport := trace.Transport("")
	switch {
	case c&classStdio != 0:
		transport = trace.Stdio
	case c&classHTTP != 0:
		transport = trace.StreamableHTTP
	}
	return sg.Sessions.Judges(stateless) &&
		(sg.Kinds == 0 || sg.Kinds&(1<<(c&classKind)) != 0) &&
		(sg.From == "" || (sg.From == spec.Server) == (c&classFromServer != 0)) &&
		(sg.Transport == "" || sg.Transport == transport) &&
		(!sg.InputRound || c&classInputRound != 0) &&
		(sg.Methods == nil || slices.Contains(sg.Methods, sightMethodName[c>>classMethodBit]))
}

// Judges reports whether the rule of rs judges the messages of class c in
// a session.
func (rs *RuleSpec) Judges(c msgClass, stateless bool) bool {
	if !rs.Messages.Judges(stateless) {
		return false
	}
	if rs.Sees == nil {
		return true
	}
	for i := range rs.Sees {
		if rs.Sees[i].Takes(c, stateless) {
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
func (d *dispatchTable) judging(s *Session, m *message.Msg) []Rule {
	c := ClassOf(m)
	if rules, ok := (*d)[c]; ok {
		return rules
	}
	if *d == nil {
		*d = dispatchTable{}
	}
	rules := judgingClass(RuleSpecs, s.rules, c, s.Stateless(), s.Run.everyRule)
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
		judges := specs[i].Judges(c, stateless)
		if every {
			judges = specs[i].Messages.Judges(stateless)
		}
		if judges {
			out = append(out, rules[i])
		}
	}
	return out
}
