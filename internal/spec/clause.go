// Package spec is the clause registry: every normative sentence of each
// supported MCP specification revision, with its level, the party it binds,
// a verbatim quote and link, and either the check that judges it from a
// recorded trace or the written reason no trace can.
package spec

import (
	"fmt"
	"strings"
)

// Level is the requirement keyword of a clause, as RFC 2119 spells it.
type Level string

// The levels a clause can carry.
const (
	Must      Level = "MUST"
	MustNot   Level = "MUST NOT"
	Should    Level = "SHOULD"
	ShouldNot Level = "SHOULD NOT"
	May       Level = "MAY"
)

// Levels lists every level, strongest first.
var Levels = []Level{Must, MustNot, Should, ShouldNot, May}

// Binding reports how a finding against the clause counts: "must" findings
// fail, "should" findings warn, "may" clauses have nothing to violate.
func (l Level) Binding() string {
	switch l {
	case Must, MustNot:
		return "must"
	case Should, ShouldNot:
		return "should"
	}
	return "may"
}

// Party is whom a clause binds.
type Party string

// The parties of a session.
const (
	Server Party = "server"
	Client Party = "client"
	Both   Party = "both"
)

// Clause is one normative sentence of one revision.
type Clause struct {
	ID    string `toml:"id" json:"id"`
	Level Level  `toml:"level" json:"level"`
	Party Party  `toml:"party" json:"party"`
	// Capability gates the clause: it applies only when the capability was
	// negotiated, written "server.tools", "client.sampling",
	// "server.resources.subscribe" and so on.
	Capability string `toml:"capability,omitempty" json:"capability,omitempty"`
	// Transport limits the clause to one transport: "stdio" or
	// "streamable-http"; empty applies to both.
	Transport string   `toml:"transport,omitempty" json:"transport,omitempty"`
	Applies   []string `toml:"applies" json:"applies"`
	URL       string   `toml:"url" json:"url"`
	Quote     string   `toml:"quote" json:"quote"`
	Check     string   `toml:"check,omitempty" json:"check,omitempty"`
	Exclusion string   `toml:"exclusion,omitempty" json:"exclusion,omitempty"`

	// Area and Revision come from the data file the clause is in.
	Area string `toml:"-" json:"area"`
	// Extension names the optional extension the clause's area belongs to
	// ("tasks"): its clauses are judged and reported beside the verdict,
	// and counted in it only when the extension is asked for.
	Extension string `toml:"-" json:"extension,omitempty"`
	Revision  string `toml:"-" json:"revision"`
	// Source is the data file and clause index, for error messages.
	Source string `toml:"-" json:"-"`
}

// Judged reports whether a check judges the clause.
func (c *Clause) Judged() bool { return c.Check != "" }

// Page returns the spec source page the clause's URL points at, relative to
// docs/specification/<revision>/, and the URL's anchor. A path may be a page
// ("basic/lifecycle") or a folder's index ("basic").
func (c *Clause) Page() (path, anchor string) {
	u := c.URL
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u, anchor = u[:i], u[i+1:]
	}
	prefix := "https://modelcontextprotocol.io/specification/" + c.Revision
	return strings.TrimPrefix(strings.TrimPrefix(u, prefix), "/"), anchor
}

// DisplayQuote is the quote as a report shows it.
func (c *Clause) DisplayQuote() string { return c.Quote }

func (c *Clause) validate() error {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if !validID(c.ID) {
		add("id %q is not AREA-NNN", c.ID)
	} else if !strings.HasPrefix(c.ID, c.Area+"-") {
		add("id %q is not in area %s", c.ID, c.Area)
	}
	if !validLevel(c.Level) {
		add("level %q is not one of %v", c.Level, Levels)
	}
	if c.Party != Server && c.Party != Client && c.Party != Both {
		add(`party %q is not "server", "client" or "both"`, c.Party)
	}
	if c.Transport != "" && c.Transport != "stdio" && c.Transport != "streamable-http" {
		add(`transport %q is not "stdio" or "streamable-http"`, c.Transport)
	}
	if !contains(c.Applies, c.Revision) {
		add("applies %v does not include the file's revision %s", c.Applies, c.Revision)
	}
	if !strings.HasPrefix(c.URL, "https://modelcontextprotocol.io/specification/"+c.Revision) {
		add("url %q is not a page of revision %s", c.URL, c.Revision)
	}
	if c.Extension != "" && !KnownExtension(c.Extension) {
		add("extension %q is not one of %v", c.Extension, Extensions)
	}
	if strings.TrimSpace(c.Quote) == "" {
		add("quote is empty")
	}
	if (c.Check == "") == (c.Exclusion == "") {
		add("needs exactly one of check or exclusion")
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: %s: %s", c.Source, c.ID, strings.Join(problems, "; "))
	}
	return nil
}

func validID(id string) bool {
	area, num, ok := strings.Cut(id, "-")
	if !ok || len(area) < 2 || len(num) != 3 {
		return false
	}
	for _, r := range area {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	for _, r := range num {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func validLevel(l Level) bool {
	for _, v := range Levels {
		if v == l {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
