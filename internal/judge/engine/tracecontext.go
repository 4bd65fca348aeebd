package engine

import (
	"regexp"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/judge/schemas"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// The W3C Trace Context (traceparent, tracestate) and W3C Baggage header
// formats, as the 2026-07-28 base protocol reserves them in _meta.
var (
	traceparentPattern = regexp.MustCompile(`^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$`)
	// tracestate list-member: a simple or multi-tenant key, "=", a value of
	// printable ASCII without "," or "=" that does not end in a space.
	tracestateMember = regexp.MustCompile(`^([a-z0-9][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$`)
	// baggage list-member: token key, "=", baggage-octets, then properties.
	baggageMember = regexp.MustCompile("^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+[ \t]*=[ \t]*[\\x21\\x23-\\x2b\\x2d-\\x3a\\x3c-\\x5b\\x5d-\\x7e]*[ \t]*(;.*)?$")
	zeroHex       = regexp.MustCompile(`^0+$`)
)

// traceparentProblem says why v is not a W3C traceparent, or "".
func traceparentProblem(v string) string {
	p := traceparentPattern.FindStringSubmatch(v)
	switch {
	case p == nil:
		return "is not version-traceid-parentid-flags in lower-case hex (2-32-16-2 digits)"
	case p[1] == "ff":
		return `uses the forbidden version "ff"`
	case p[1] == "00" && p[5] != "":
		return "carries fields after the flags, which version 00 does not allow"
	case zeroHex.MatchString(p[2]):
		return "has an all-zero trace-id"
	case zeroHex.MatchString(p[3]):
		return "has an all-zero parent-id"
	}
	return ""
}

// tracestateProblem says why v is not a W3C tracestate list, or "".
func tracestateProblem(v string) string {
	members := 0
	for _, m := range strings.Split(v, ",") {
		m = strings.Trim(m, " \t")
		if m == "" {
			continue
		}
		members++
		if !tracestateMember.MatchString(m) {
			return "has list-member " + QuoteValue(m) + ", which is not key=value in the tracestate grammar"
		}
	}
	if members > 32 {
		return "has more than 32 list-members"
	}
	return ""
}

// baggageProblem says why v is not a W3C baggage list, or "".
func baggageProblem(v string) string {
	for _, m := range strings.Split(v, ",") {
		if m = strings.Trim(m, " \t"); !baggageMember.MatchString(m) {
			return "has list-member " + QuoteValue(m) + ", which is not key=value in the baggage grammar"
		}
	}
	return ""
}

func QuoteValue(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return `"` + s + `"`
}

var traceContextKeys = []struct {
	key     string
	problem func(string) string
}{
	{"baggage", baggageProblem},
	{"traceparent", traceparentProblem},
	{"tracestate", tracestateProblem},
}

// CheckTraceContext holds the OpenTelemetry keys of one _meta object to their
// W3C formats.
func CheckTraceContext(s *Session, m *message.Msg, obj schemas.MetaObject) {
	for _, tc := range traceContextKeys {
		v := obj.Value(tc.key)
		if v == nil {
			continue
		}
		str, isString := "", rawjson.Kind(v) == '"'
		problem := "is not a string"
		if isString {
			str, _ = message.JSONString(v)
			problem = tc.problem(str)
		}
		s.Expect("meta.trace-context", problem == "", m.From, m.Event, "%s %s at %s %s", tc.key, QuoteValue(str), obj.Path, problem)
	}
}
