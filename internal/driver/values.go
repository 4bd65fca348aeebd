package driver

import (
	"strings"
	"unicode"
)

// A prompt argument or template variable is a string on the wire, but many
// servers parse it as a number, a flag or a URL. With no completion to go
// by, the driver guesses a value of the right kind from the name and the
// description the server gave.

// numberWords mark a value the server will parse as an integer.
var numberWords = wordSet("id ids number integer int num count index port limit page size amount age year quantity")

var (
	flagWords  = wordSet("bool boolean flag enabled enable disabled")
	urlWords   = wordSet("url uri link href")
	dateWords  = wordSet("date day")
	emailWords = wordSet("email mail")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// guessValue is the driver's value for an argument it has no completion for.
func guessValue(name, description string) string {
	nameWords, descWords := words(name), words(description)
	switch {
	case anyIn(nameWords, numberWords) || anyIn(descWords, wordSet("integer number numeric")):
		return "1"
	case anyIn(nameWords, flagWords):
		return "true"
	case anyIn(nameWords, urlWords):
		return "https://example.com/mcpverdict"
	case anyIn(nameWords, dateWords):
		return "2026-01-01"
	case anyIn(nameWords, emailWords):
		return "mcpverdict@example.com"
	}
	return "mcpverdict"
}

// alternateValue is the second guess, tried once when the server refused the
// first: a number where a word was refused, a word where a number was.
func alternateValue(first string) string {
	if first == "1" {
		return "mcpverdict"
	}
	return "1"
}

// words splits a camelCase, snake_case, kebab-case or prose name into
// lower-case words.
func words(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, strings.ToLower(cur.String()))
			cur.Reset()
		}
	}
	prev := rune(0)
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur.WriteRune(r)
		default:
			cur.WriteRune(r)
		}
		prev = r
	}
	flush()
	return out
}

func anyIn(list []string, set map[string]bool) bool {
	for _, w := range list {
		if set[w] {
			return true
		}
	}
	return false
}

// durationWords mark a numeric tool argument that makes the call take time:
// the driver sets it as small as the schema allows.
var durationWords = wordSet("duration delay interval sleep wait timeout seconds secs sec ms millis milliseconds latency pause")

func durationLike(name string) bool { return anyIn(words(name), durationWords) }

// inMilliseconds reports a duration argument whose name says its unit is
// the millisecond.
func inMilliseconds(name string) bool {
	w := words(name)
	return anyIn(w, wordSet("ms millis milliseconds")) || strings.HasSuffix(strings.ToLower(name), "ms")
}
