package tools

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// maxToolNameLength is the longest tool name the tools page recommends.
const maxToolNameLength = 128

// judgeToolName holds a listed tool's name to the length and characters the
// tools page recommends.
func judgeToolName(s *engine.Session, m *message.Msg, name string) {
	n := utf8.RuneCountInString(name)
	s.Expect("tools.name-length", n >= 1 && n <= maxToolNameLength, spec.Server, m.Event,
		"tool name %s is %d characters long, not between 1 and %d", message.Preview(name), n, maxToolNameLength)
	if bad, ok := firstBadNameChar(name); !ok {
		s.Fail("tools.name-charset", spec.Server, m.Event,
			"tool name %s contains %q; only A-Z, a-z, 0-9, underscore, hyphen and dot are recommended", message.Preview(name), bad)
	} else if name != "" {
		s.Pass("tools.name-charset", spec.Server)
	}
}

func firstBadNameChar(name string) (rune, bool) {
	for _, c := range name {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-', c == '.':
		default:
			return c, false
		}
	}
	return 0, true
}

// judgeNamesUnique holds a whole tools listing to naming each tool once.
func judgeNamesUnique(s *engine.Session, m *message.Msg, names []string) {
	if i := firstRepeat(names); i >= 0 {
		s.Fail("tools.name-unique", spec.Server, m.Event, "tool name %s appears more than once in one tools/list listing", message.Preview(names[i]))
		return
	}
	if len(names) > 0 {
		s.Pass("tools.name-unique", spec.Server)
	}
}

// fewNames is how many names are compared pairwise rather than through a
// map, which costs more to build than a short listing takes to compare.
const fewNames = 16

// firstRepeat returns the index of the first name that an earlier one
// repeats, -1 when none does.
func firstRepeat(names []string) int {
	if len(names) <= fewNames {
		for i, n := range names {
			if slices.Contains(names[:i], n) {
				return i
			}
		}
		return -1
	}
	seen := make(map[string]bool, len(names))
	for i, n := range names {
		if seen[n] {
			return i
		}
		seen[n] = true
	}
	return -1
}

// calledTool returns the listed tool a call names, nil when none has the
// exact name; a call that names none is then judged for matching a listed
// name in other case.
func (r *toolsRule) calledTool(s *engine.Session, m *message.Msg, name string, succeeded bool) *toolDef {
	def := r.tools[name]
	if def == nil {
		r.judgeCaseSensitive(s, m, name, succeeded)
	}
	return def
}

// judgeCaseSensitive holds a server to telling tool names apart by case: a
// call that names a listed tool in other case, when no listed tool has the
// exact name, must not succeed.
func (r *toolsRule) judgeCaseSensitive(s *engine.Session, m *message.Msg, name string, succeeded bool) {
	if !r.listedWhole {
		return
	}
	listed := ""
	for n := range r.tools {
		if strings.EqualFold(n, name) && (listed == "" || n < listed) {
			listed = n
		}
	}
	if listed == "" {
		return
	}
	s.Expect("tools.name-case-sensitive", !succeeded, spec.Server, m.Event,
		"tools/call %q was answered with a successful result, though the server lists no such tool, only %q: it matched the name without regard to case", name, listed)
}
