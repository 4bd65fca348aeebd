package engine

import "strings"

// MetaKey is a _meta key split the way the base protocol's key name format
// reads it: an optional prefix (everything before the last slash) and a name.
type MetaKey struct {
	Prefix    string
	HasPrefix bool
	Name      string
}

func SplitMetaKey(key string) MetaKey {
	i := strings.LastIndexByte(key, '/')
	if i < 0 {
		return MetaKey{Name: key}
	}
	return MetaKey{Prefix: key[:i], HasPrefix: true, Name: key[i+1:]}
}

func (k MetaKey) Labels() []string { return strings.Split(k.Prefix, ".") }

// PrefixStructureProblem says why a prefix is not a series of dot-separated
// labels, or "" when it is. What a label may contain is labelProblem's
// business.
func PrefixStructureProblem(prefix string) string {
	switch {
	case prefix == "":
		return "the prefix before the slash is empty"
	case strings.Contains(prefix, "/"):
		return "the prefix holds more than one slash"
	case strings.Contains(prefix, ".."), prefix[0] == '.', prefix[len(prefix)-1] == '.':
		return "the prefix has an empty label"
	}
	return ""
}

// LabelProblem says why a prefix label breaks the label rule, or "".
func LabelProblem(label string) string {
	switch {
	case !isLetter(label[0]):
		return "starts with " + quoteByte(label[0]) + ", not a letter"
	case !isAlnum(label[len(label)-1]):
		return "ends with " + quoteByte(label[len(label)-1]) + ", not a letter or digit"
	}
	for i := 1; i < len(label)-1; i++ {
		if c := label[i]; !isAlnum(c) && c != '-' {
			return "holds " + quoteByte(c) + ", which is not a letter, digit or hyphen"
		}
	}
	return ""
}

// NameEndsProblem says why a non-empty name does not begin and end with an
// alphanumeric character, or "".
func NameEndsProblem(name string) string {
	switch {
	case !isAlnum(name[0]):
		return "begins with " + quoteByte(name[0])
	case !isAlnum(name[len(name)-1]):
		return "ends with " + quoteByte(name[len(name)-1])
	}
	return ""
}

// NameInteriorProblem says which character between a name's first and last
// is not a hyphen, underscore, dot or alphanumeric, or "".
func NameInteriorProblem(name string) string {
	for i := 1; i < len(name)-1; i++ {
		if c := name[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return "holds " + quoteByte(c)
		}
	}
	return ""
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool  { return isLetter(c) || isDigit(c) }

func quoteByte(c byte) string {
	if c < 0x20 || c >= 0x7f {
		return "a non-ASCII or control byte"
	}
	return `"` + string(rune(c)) + `"`
}

// prefixProblem says what breaks a prefix's structure or one of its
// labels, or "".
func prefixProblem(prefix string) string {
	if p := PrefixStructureProblem(prefix); p != "" {
		return p
	}
	for _, label := range strings.Split(prefix, ".") {
		if p := LabelProblem(label); p != "" {
			return "has prefix label " + Quote(label) + " that " + p
		}
	}
	return ""
}

// nameProblem says what breaks a name's form, or "" (an empty name is valid).
func nameProblem(name string) string {
	if name == "" {
		return ""
	}
	p := NameEndsProblem(name)
	if p == "" {
		p = NameInteriorProblem(name)
	}
	if p == "" {
		return ""
	}
	return "has a name that " + p
}

// topLevelDomains are the domains whose place in a prefix tells reverse DNS
// notation ("com.example") from forward ("example.com"). A prefix that
// names none of them at either end is not judged.
var topLevelDomains = map[string]bool{
	"com": true, "org": true, "net": true, "io": true, "dev": true, "ai": true, "app": true,
	"edu": true, "gov": true, "co": true, "me": true, "sh": true, "cloud": true, "tech": true,
	"info": true, "biz": true, "xyz": true, "us": true, "uk": true, "de": true, "fr": true,
	"jp": true, "cn": true, "eu": true, "ca": true, "au": true, "in": true, "nl": true,
}

// DnsOrder reports whether a multi-label prefix reads as reverse DNS (its
// first label a top-level domain) or forward DNS (only its last one is).
func DnsOrder(labels []string) (reverse, forward bool) {
	if len(labels) < 2 {
		return false, false
	}
	first := topLevelDomains[strings.ToLower(labels[0])]
	last := topLevelDomains[strings.ToLower(labels[len(labels)-1])]
	return first, last && !first
}
