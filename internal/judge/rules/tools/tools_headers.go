package tools

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// sensitiveNames are parameter or header names that can only carry secrets.
var sensitiveNames = []string{"password", "passwd", "passphrase", "secret", "apikey", "accesstoken", "refreshtoken",
	"authtoken", "bearertoken", "sessiontoken", "privatekey"}

// judgeHeadersNotSensitive flags a parameter whose name says it carries a
// secret and that is mirrored into a header anyway. The constraints on the
// annotations themselves are the http.x-mcp-header-* checks'.
func judgeHeadersNotSensitive(s *engine.Session, m *message.Msg, tool string, input json.RawMessage) {
	for _, a := range FindAnnotations(input) {
		property := ""
		if len(a.Path) > 0 {
			property = a.Path[len(a.Path)-1]
		}
		word := sensitiveWord(a.Name)
		if word == "" {
			word = sensitiveWord(property)
		}
		s.Expect("tools.x-mcp-header-not-sensitive", word == "", spec.Server, m.Event,
			"tool %q mirrors parameter %q into header Mcp-Param-%s, though its name (%q) marks it as a secret", tool, property, a.Name, word)
	}
}

func sensitiveWord(name string) string {
	squashed := strings.Map(func(c rune) rune {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			return unicode.ToLower(c)
		}
		return -1
	}, name)
	for _, w := range sensitiveNames {
		if strings.Contains(squashed, w) {
			return w
		}
	}
	return ""
}
