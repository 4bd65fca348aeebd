package spec

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Section is the text under one heading of a spec page, normalized.
type Section struct {
	Anchor string
	Text   string
}

// Page is a spec source page split into its sections; the first section
// (before any heading) has an empty anchor.
type Page struct {
	Path     string
	Sections []Section
}

var heading = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)

// ReadPage reads docs/specification/<rev>/<path> from a spec checkout. path
// is a URL path ("basic/lifecycle") or file path ("basic/lifecycle.mdx").
func ReadPage(specDir, rev, path string) (*Page, error) {
	base := filepath.Join(specDir, "docs", "specification", rev)
	file := filepath.Join(base, strings.TrimSuffix(path, ".mdx")+".mdx")
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		file = filepath.Join(base, path, "index.mdx")
		b, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, err
	}
	return ParsePage(path, string(b)), nil
}

// ParsePage splits markdown into normalized sections, leaving out fenced code.
func ParsePage(path, md string) *Page {
	p := &Page{Path: path}
	var cur strings.Builder
	anchor := ""
	flush := func() {
		p.Sections = append(p.Sections, Section{Anchor: anchor, Text: Normalize(cur.String())})
		cur.Reset()
	}
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			flush()
			anchor = Slug(m[2])
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	flush()
	return p
}

var slugDrop = regexp.MustCompile(`[^\p{L}\p{N}\s_-]`)

// Slug makes a heading's anchor the way the published site does: lower
// case, punctuation dropped, spaces turned into hyphens.
func Slug(h string) string {
	h = strings.ToLower(Normalize(h))
	h = slugDrop.ReplaceAllString(h, "")
	return strings.ReplaceAll(strings.TrimSpace(h), " ", "-")
}

// Find returns the anchors of the sections whose text contains quote.
func (p *Page) Find(quote string) []string {
	q := Normalize(quote)
	var out []string
	for _, s := range p.Sections {
		if strings.Contains(s.Text, q) {
			out = append(out, s.Anchor)
		}
	}
	return out
}

var keyword = regexp.MustCompile(`\b(MUST NOT|MUST|SHOULD NOT|SHOULD|REQUIRED|SHALL NOT|SHALL|RECOMMENDED)\b`)

// Requirement is one normative keyword in a page: where it is and the
// sentence around it.
type Requirement struct {
	Anchor   string
	Keyword  string
	Sentence string
	section  int
	start    int
	end      int
}

// Requirements lists every MUST, MUST NOT, REQUIRED, SHALL, SHOULD, SHOULD
// NOT and RECOMMENDED in the page's prose.
func (p *Page) Requirements() []Requirement {
	var out []Requirement
	for i, s := range p.Sections {
		for _, loc := range keyword.FindAllStringIndex(s.Text, -1) {
			out = append(out, Requirement{Anchor: s.Anchor, Keyword: s.Text[loc[0]:loc[1]],
				Sentence: sentenceAround(s.Text, loc[0]), section: i, start: loc[0], end: loc[1]})
		}
	}
	return out
}

// Covered reports whether any of quotes (already normalized), found in the
// requirement's section, spans the keyword.
func (p *Page) Covered(r Requirement, quotes []string) bool {
	text := p.Sections[r.section].Text
	for _, q := range quotes {
		for from := 0; ; {
			i := strings.Index(text[from:], q)
			if i < 0 {
				break
			}
			i += from
			if i <= r.start && r.end <= i+len(q) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

func sentenceAround(text string, at int) string {
	start := strings.LastIndex(text[:at], ". ")
	if start < 0 {
		start = 0
	} else {
		start += 2
	}
	end := strings.Index(text[at:], ". ")
	if end < 0 {
		end = len(text)
	} else {
		end += at + 1
	}
	s := text[start:end]
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}
