package wiretext

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"tools/call", "tools/call"},
		{"héllo wörld ✓", "héllo wörld ✓"},
		{"line\nnext", `line\nnext`},
		{"\n::error::pwned", `\n::error::pwned`},
		{"::add-mask::x", `\x3a:add-mask::x`},
		{"   ::set-output name=x::y", `   \x3a:set-output name=x::y`},
		{"a::b", "a::b"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"\x1b]8;;http://x\x07link\x1b]8;;\x07", `\x1b]8;;http://x\x07link\x1b]8;;\x07`},
		{"bell\a tab\t cr\r", `bell\x07 tab\t cr\r`},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`},
		{"rtl \u202egnp.exe", `rtl \u202egnp.exe`},
		{"nbsp\u00a0zwsp\u200b", `nbsp\u00a0zwsp\u200b`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{`back\slash`, `back\\slash`},
		{"del\x7f", `del\x7f`},
		{"%0A::error::", "%0A::error::"},
		{"\t::error::x", `\t::error::x`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Quoted text is one line of visible characters that cannot begin a
// workflow command, and it says exactly what the input was: read back as a
// Go string literal, it is the input again.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "::error::x", "\n::warning::", "\x1b]0;title\x07", "\xed\xa0\x80", "a\\nb", "\u2028", " ::x", "\t ::x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if !utf8.ValidString(q) {
			t.Fatalf("Quote(%q) = %q is not UTF-8", s, q)
		}
		for _, r := range q {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' {
				t.Fatalf("Quote(%q) = %q holds %U", s, q, r)
			}
		}
		if strings.HasPrefix(strings.TrimLeft(q, " \t"), "::") {
			t.Fatalf("Quote(%q) = %q begins a workflow command", s, q)
		}
		back, err := strconv.Unquote(`"` + strings.ReplaceAll(q, `"`, `\"`) + `"`)
		if err != nil || back != s {
			t.Fatalf("Quote(%q) = %q reads back as %q (%v)", s, q, back, err)
		}
	})
}

func BenchmarkQuotePlain(b *testing.B) {
	s := "tool \"create_entities\" declares readOnlyHint true but wrote 3 rows"
	for b.Loop() {
		Quote(s)
	}
}

func TestGuard(t *testing.T) {
	var out strings.Builder
	g := Guard(&out)
	for _, w := range []string{"mcpverdict: note: error -32601: ", "fine\n", "::error::pwned\n\t  ::add-mask::x\n", "\x1b]0;t\x07 \\n kept\nhalf", " a line"} {
		g.Write([]byte(w))
	}
	g.Flush()
	want := "mcpverdict: note: error -32601: fine\n\\x3a:error::pwned\n\t  \\x3a:add-mask::x\n\\x1b]0;t\\x07 \\n kept\nhalf a line"
	if out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
}

// Whatever is written, no line of the guarded output is a workflow command
// or holds a control character other than tab.
func FuzzGuard(f *testing.F) {
	f.Add([]byte("::error::x\n"), 3)
	f.Add([]byte("a\n \t::warning::\x1b[2J\n\xc2\x9b"), 1)
	f.Fuzz(func(t *testing.T, data []byte, chunk int) {
		if chunk < 1 {
			chunk = 1
		}
		var out strings.Builder
		g := Guard(&out)
		for len(data) > 0 {
			n := min(chunk, len(data))
			g.Write(data[:n])
			data = data[n:]
		}
		g.Flush()
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
				t.Fatalf("line %q is a workflow command", line)
			}
			if !utf8.ValidString(line) {
				t.Fatalf("line %q is not UTF-8", line)
			}
			for _, r := range line {
				if (r < 0x20 && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
					t.Fatalf("line %q holds %U", line, r)
				}
			}
		}
	})
}

func TestVisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`tool "a\nb" wrote`, `tool "a\nb" wrote`},
		{"error: \n::error::x", `error: \n::error::x`},
		{"\t::notice::x", "\t\\x3a:notice::x"},
		{"osc \x1b]52;c;aGk=\x07", `osc \x1b]52;c;aGk=\x07`},
	} {
		if got := Visible(c.in); got != c.want {
			t.Errorf("Visible(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestShorten(t *testing.T) {
	if got := Shorten("ééé", 3); got != "é... (4 more bytes)" {
		t.Errorf("got %q", got)
	}
	if got := Shorten("short", 10); got != "short" {
		t.Errorf("got %q", got)
	}
}
