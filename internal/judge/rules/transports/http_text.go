package transports

import (
	"strings"
)

// mediaType returns the lower-cased media type of a Content-Type value,
// without parameters.
func mediaType(contentType string) string {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// acceptsMedia reports whether an Accept header value lists a media type
// by name. A wildcard range is not a listing: the transport asks for the
// types themselves.
func acceptsMedia(accept, want string) bool {
	for _, item := range strings.Split(accept, ",") {
		if mediaType(item) == want {
			return true
		}
	}
	return false
}

// visibleASCII reports whether s is made only of the characters 0x21-0x7E.
func visibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return s != ""
}

// quoteList renders names for a message: "a", "b".
func quoteList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = `"` + n + `"`
	}
	return strings.Join(quoted, ", ")
}
