package wiretext

import (
	"bytes"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"
)

// Guard returns a writer that passes lines on to w with nothing in them a
// terminal or the Actions runner would act on: control characters (tab
// and the line's end apart), C1 and other invisible characters and bytes
// that are not UTF-8 are written as escapes, and a line that would begin
// with "::" after white space, a workflow command, has its first colon
// written \x3a. It is the last defence for output whose every string
// should already have gone through Quote; the backslash is left alone, so
// text Quote made passes unchanged. Lines are written whole: a partial
// line waits for its end or for Flush.
func Guard(w io.Writer) *Guarded { return &Guarded{w: w} }

// Guarded is a writer made by Guard.
type Guarded struct {
	mu      sync.Mutex
	w       io.Writer
	partial []byte
}

// Write writes every whole line of p, and keeps the rest for later.
func (g *Guarded) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			g.partial = append(g.partial, p...)
			return n, nil
		}
		line := p[:i]
		if len(g.partial) > 0 {
			line = append(g.partial, line...)
			g.partial = g.partial[:0]
		}
		if _, err := io.WriteString(g.w, Visible(string(line))+"\n"); err != nil {
			return 0, err
		}
		p = p[i+1:]
	}
	return n, nil
}

// Flush writes a partial line kept so far.
func (g *Guarded) Flush() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.partial) == 0 {
		return nil
	}
	line := Visible(string(g.partial))
	g.partial = g.partial[:0]
	_, err := io.WriteString(g.w, line)
	return err
}

// Shorten cuts s to at most max bytes, at a character's start, and says
// how much it left out: a peer's string can be as long as it likes, a line
// of a log should not be.
func Shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "... (" + strconv.Itoa(len(s)-cut) + " more bytes)"
}
