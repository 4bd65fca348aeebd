package engine

import (
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

func TestURIProblem(t *testing.T) {
	for uri, valid := range map[string]bool{
		"file:///project/src/main.rs":       true,
		"https://example.com/a?b=c#d":       true,
		"custom+scheme:opaque/path%20x":     true,
		"urn:isbn:0451450523":               true,
		"":                                  false,
		"not a uri":                         false,
		"/relative/path":                    false,
		"1abc:x":                            false,
		"file:///my notes.txt":              false,
		"file:///a%2":                       false,
		"file:///a%zz":                      false,
		"https://example.com/#a#b":          false,
		"file:///\u6587\u6863.txt":          true,
		"file:///%E6%96%87%E6%A1%A3.txt":    true,
		"mailto:someone@example.com":        true,
		"data:text/plain;base64,SGVsbG8=":   true,
		"https://example.com/{unexpanded}":  false,
		"https://example.com/path|pipe":     false,
		"git://github.com/owner/repo.git":   true,
		"HTTPS://EXAMPLE.COM/UPPER":         true,
		"file:///C:/Users/me/notes.txt":     true,
		"https://[::1]:8080/ipv6":           true,
		"x:":                                true,
		"file:///tab\there":                 false,
		"https://example.com/\"quoted\"":    false,
		"https://example.com/back\\slash":   false,
		"https://example.com/caret^":        false,
		"https://example.com/grave`":        false,
		"https://example.com/angle<bracket": false,
	} {
		if got := URIProblem(uri) == ""; got != valid {
			t.Errorf("uriProblem(%q) = %q, want valid=%v", uri, URIProblem(uri), valid)
		}
	}
}

func TestTemplatePattern(t *testing.T) {
	p := TemplatePattern("file:///project/{+path}/x{?q}")
	for uri, match := range map[string]bool{
		"file:///project/src/x":        true,
		"file:///project/a/b/x?q=1":    true,
		"file:///other/src/x":          false,
		"file:///project.src/x":        false,
		"file:///project/src/x/suffix": true, // over-matching is on purpose
	} {
		if p.MatchString(uri) != match {
			t.Errorf("template matches %q = %v, want %v", uri, !match, match)
		}
	}
}

func TestIsBase64AndMIME(t *testing.T) {
	for s, ok := range map[string]bool{"aGk=": true, "aGk": true, "": true, "not base64!": false, "a-_b": false} {
		if message.IsBase64(s) != ok {
			t.Errorf("isBase64(%q) = %v, want %v", s, !ok, ok)
		}
	}
	for s, ok := range map[string]bool{"image/png": true, "text/plain; charset=utf-8": true, "image": false, "/png": false} {
		if (message.MimeProblem(&s) == "") != ok {
			t.Errorf("mimeProblem(%q) = %q, want ok=%v", s, message.MimeProblem(&s), ok)
		}
	}
	if message.MimeProblem(nil) == "" {
		t.Error("a missing mimeType passed")
	}
}

func FuzzURIProblem(f *testing.F) {
	for _, s := range []string{"file:///a", "not a uri", "x:%", "a:#%2#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if URIProblem(s) == "" && !uriScheme.MatchString(s) {
			t.Errorf("%q passed without a scheme", s)
		}
	})
}
