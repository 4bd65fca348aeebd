package spec

import (
	"regexp"
	"strings"
)

var (
	mdLink     = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	mdStrong   = strings.NewReplacer("**", "")
	whitespace = regexp.MustCompile(`\s+`)
	codeFence  = regexp.MustCompile("(?ms)^\\s*```.*?^\\s*```[^\n]*$")
)

// Normalize reduces spec markdown, or a quote of it, to the text a reader
// sees: links become their text, bold markers go, whitespace collapses. A
// quote is verbatim when its normalized form occurs in the normalized page.
func Normalize(s string) string {
	s = mdLink.ReplaceAllString(s, "$1")
	s = mdStrong.Replace(s)
	return strings.TrimSpace(whitespace.ReplaceAllString(s, " "))
}

// StripCode removes fenced code blocks, whose keywords are example data,
// not requirements.
func StripCode(page string) string { return codeFence.ReplaceAllString(page, "") }
