package reporters

import (
	"fmt"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
)

// mustSecuritySeverity is the security-severity GitHub shows for a broken
// MUST clause ("medium", on GitHub's 0.0–10.0 scale): a peer that breaks
// the protocol's hard rules can be driven into states nobody designed for.
const mustSecuritySeverity = "6.0"

// ClauseRuleID names a clause's rule. Clause ids are per revision (LIFE-009
// of one revision need not be LIFE-009 of another), so the revision is part
// of the id; SARIF reserves "/" for rule hierarchies (§3.27.5), hence "@".
func ClauseRuleID(c *spec.Clause) string { return c.ID + "@" + c.Revision }

// WireRuleID names the wire-schema rule of a revision.
func WireRuleID(revision string) string { return "WIRE-SCHEMA@" + revision }

// sarifLevel maps a clause's level to a SARIF level: a MUST finding fails
// the verdict, a SHOULD finding warns.
func sarifLevel(l spec.Level) string {
	if l.Binding() == "must" {
		return "error"
	}
	return "warning"
}

func clauseRule(c *spec.Clause) *sarif.ReportingDescriptor {
	level := sarifLevel(c.Level)
	props := sarif.Properties{
		"tags":             []string{"mcp", "conformance", strings.ToLower(c.Area), strings.ToLower(c.Level.Binding()), "binds-" + string(c.Party)},
		"precision":        "very-high",
		"problem.severity": level,
	}
	if level == "error" {
		props["security-severity"] = mustSecuritySeverity
	}
	return sarif.NewRule(ClauseRuleID(c)).
		WithName(ruleName(c)).
		WithShortDescription(sarif.NewMultiformatMessageString(sentence(fmt.Sprintf("%s (%s, %s): %s", c.ID, c.Level, c.Revision, clip(c.Quote, 160))))).
		WithFullDescription(sarif.NewMultiformatMessageString(sentence(c.Quote))).
		WithHelpURI(c.URL).
		WithHelp(clauseHelp(c)).
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(level)).
		WithProperties(props)
}

// ruleName is the rule's readable name (SARIF §3.49.7): an identifier, so
// no spaces, and different from the opaque id (SARIF1001).
func ruleName(c *spec.Clause) string {
	area, number, _ := strings.Cut(c.ID, "-")
	return "Mcp" + pascal(area) + number + "Rev" + strings.ReplaceAll(c.Revision, "-", "")
}

// pascal capitalises the first letter of a word and lowers the rest.
func pascal(word string) string {
	if word == "" {
		return ""
	}
	return strings.ToUpper(word[:1]) + strings.ToLower(word[1:])
}

func clauseHelp(c *spec.Clause) *sarif.MultiformatMessageString {
	text := fmt.Sprintf("%s %s (%s, MCP %s): %q See %s", c.ID, c.Level, binds(c.Party), c.Revision, c.Quote, c.URL)
	md := fmt.Sprintf("**%s** · %s · %s · MCP %s\n\n> %s\n\n[The specification](%s)", c.ID, c.Level, binds(c.Party), c.Revision, markdownText(c.Quote), c.URL)
	return sarif.NewMultiformatMessageString(text).WithMarkdown(md)
}

func wireRule(revision string) *sarif.ReportingDescriptor {
	url := "https://github.com/modelcontextprotocol/modelcontextprotocol/blob/" + wireschema.SpecCommit + "/schema/" + revision + "/schema.json"
	desc := fmt.Sprintf("Every message conforms to the MCP %s JSON Schema.", revision)
	help := fmt.Sprintf("Each message of the session is validated against the specification's schema.json of revision %s (dispatched on the method, on the request a result answers, or as an error). See %s", revision, url)
	return sarif.NewRule(WireRuleID(revision)).
		WithName("McpWireSchemaRev" + strings.ReplaceAll(revision, "-", "")).
		WithShortDescription(sarif.NewMultiformatMessageString(desc)).
		WithFullDescription(sarif.NewMultiformatMessageString(desc)).
		WithHelpURI(url).
		WithHelp(sarif.NewMultiformatMessageString(help).WithMarkdown(fmt.Sprintf("Validated against [schema/%s/schema.json](%s).", revision, url))).
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel("error")).
		WithProperties(sarif.Properties{
			"tags":              []string{"mcp", "conformance", "wire-schema"},
			"precision":         "very-high",
			"problem.severity":  "error",
			"security-severity": mustSecuritySeverity,
		})
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// binds says whom a clause binds, in words.
func binds(p spec.Party) string {
	if p == spec.Both {
		return "binds both parties"
	}
	return "binds the " + string(p)
}
