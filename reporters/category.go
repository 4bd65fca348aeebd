package reporters

import (
	"regexp"
	"strings"
)

// Category is the SARIF analysis category for a server: "mcpverdict/", its
// name as a slug, and the "/" GitHub reads a category up to.
func Category(server string) string { return "mcpverdict/" + Slug(server) + "/" }

var slugBreaks = regexp.MustCompile(`[^a-z0-9._]+(-[^a-z0-9._]*)*`)

// Slug turns a name into the lowercase letters, digits, dots and single
// dashes a SARIF category or an artifact name can hold, at most 60 long.
func Slug(s string) string {
	s = strings.Trim(slugBreaks.ReplaceAllString(strings.ToLower(s), "-"), "-.")
	if len(s) > 60 {
		s = strings.Trim(s[:60], "-.")
	}
	if s == "" {
		return "server"
	}
	return s
}
