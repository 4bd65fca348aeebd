package engine

import (
	"bytes"
	"regexp"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// credentialPatterns are credentials whose form alone gives them away: a
// match is a secret, not a guess, so a log message carrying one breaks the
// rule that log messages carry no credentials. Anything less certain (a
// word like "password", a long random string) is left alone.
//
// Each pattern comes with a literal every match contains, found by a byte
// search far faster than the regexp can rule a text out: log messages are
// many and almost none carry a secret.
var credentialPatterns = []struct {
	name    string
	literal string // in every match; "bearer" in any case
	re      *regexp.Regexp
}{
	{"a private key", "PRIVATE KEY-----", regexp.MustCompile(`-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----`)},
	{"an AWS access key id", "IA", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{"a GitHub token", "gh", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`)},
	{"a Slack token", "xox", regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`)},
	{"a Google API key", "AIza", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`)},
	{"a Stripe secret key", "k_live_", regexp.MustCompile(`\b[sr]k_live_[0-9A-Za-z]{24,}\b`)},
	{"a JSON Web Token", "eyJ", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`)},
	{"a bearer token", "bearer", regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/-]{20,}=*`)},
}

// CheckCredentials looks for a recognisable credential anywhere in a
// notifications/message's params. The finding names the kind of secret and
// where it starts, never the secret itself, so the report does not repeat it.
// It reports whether the params carry none.
func CheckCredentials(s *Session, m *message.Msg) bool {
	kind, at := FindCredential(m.Params)
	s.Expect("logging.no-credentials", kind == "", spec.Server, m.Event,
		"notifications/message carries %s (%q…)", kind, at)
	return kind == ""
}

// FindCredential returns the kind of the first credential in text and its
// first four bytes, or "" when there is none.
func FindCredential(text []byte) (kind string, start string) {
	for _, p := range credentialPatterns {
		if !mayMatch(text, p.literal) {
			continue
		}
		if loc := p.re.FindIndex(text); loc != nil {
			return p.name, string(text[loc[0] : loc[0]+4])
		}
	}
	return "", ""
}

// mayMatch reports whether text holds a pattern's literal; "bearer" in any
// case, as the pattern reads it (no letter of it has a non-ASCII case
// fold, so comparing ASCII letters is exact).
func mayMatch(text []byte, literal string) bool {
	if literal != "bearer" {
		return bytes.Contains(text, []byte(literal))
	}
	for i := bytes.IndexAny(text, "bB"); i >= 0 && i+len(literal) <= len(text); {
		if bytes.EqualFold(text[i:i+len(literal)], []byte(literal)) {
			return true
		}
		next := bytes.IndexAny(text[i+1:], "bB")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}
