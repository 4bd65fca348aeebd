package reporters

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"
)

// FingerprintKey names mcpverdict's partial fingerprint (SARIF §3.27.17):
// GitHub matches results across runs by it, so the same finding on the next
// push is the same alert.
const FingerprintKey = "mcpverdictFinding/v1"

func (b *sarifRun) findingResult(rule *sarif.ReportingDescriptor, found *Finding) *sarif.Result {
	c, f, place := found.Clause, found.Judged, found.Place
	text := fmt.Sprintf("[%s] %s (%s %s, %s:%d seq %d)", f.Party, f.Message, c.Clause.ID, c.Clause.Level, f.Trace, f.Line, f.Seq)
	res := sarif.NewRuleResult(rule.ID).
		WithLevel(sarifLevel(c.Clause.Level)).
		WithMessage(sarif.NewTextMessage(sentence(text))).
		WithLocations([]*sarif.Location{b.location(place)})
	if place.Kind != AtTrace {
		if tp, ok := b.repo.TraceLine(f.Trace, f.Line); ok {
			res.WithRelatedLocations([]*sarif.Location{b.location(tp).WithMessage(sarif.NewTextMessage("The offending event in the trace."))})
		}
	}
	res.WithPartialFingerPrints(map[string]any{FingerprintKey: b.fingerprint(rule.ID, string(f.Party), f.Check, f.Message)})
	res.Properties = sarif.Properties{"party": string(f.Party), "check": f.Check, "trace": f.Trace, "line": f.Line, "seq": f.Seq, "outcome": string(c.Outcome)}
	if f.Session != "" {
		res.Properties["session"] = f.Session
	}
	return res
}

func (b *sarifRun) wireResult(rule *sarif.ReportingDescriptor, found *Finding) *sarif.Result {
	f, place := found.Wire, found.Place
	text := fmt.Sprintf("[%s] %s at %q: %s (%s:%d seq %d)", f.Party, f.Definition, f.Pointer, f.Error, f.Trace, f.Line, f.Seq)
	res := sarif.NewRuleResult(rule.ID).
		WithLevel("error").
		WithMessage(sarif.NewTextMessage(sentence(text))).
		WithLocations([]*sarif.Location{b.location(place)})
	if place.Kind != AtTrace {
		if tp, ok := b.repo.TraceLine(f.Trace, f.Line); ok {
			res.WithRelatedLocations([]*sarif.Location{b.location(tp).WithMessage(sarif.NewTextMessage("The offending message in the trace."))})
		}
	}
	res.WithPartialFingerPrints(map[string]any{FingerprintKey: b.fingerprint(rule.ID, string(f.Party), f.Definition+" "+f.Pointer, f.Error)})
	res.Properties = sarif.Properties{"party": string(f.Party), "trace": f.Trace, "line": f.Line, "seq": f.Seq, "definition": f.Definition, "pointer": f.Pointer}
	return res
}

func (b *sarifRun) location(p Place) *sarif.Location {
	loc := sarif.NewArtifactLocation()
	switch {
	case p.InRepo:
		loc.WithUri(uriPath(p.Path)).WithUriBaseId(srcRoot)
	case filepath.IsAbs(p.Path):
		loc.WithUri(fileURI(p.Path))
	default:
		loc.WithUri(uriPath(p.Path))
	}
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(loc).WithRegion(sarif.NewRegion().WithStartLine(p.Line))
	return sarif.NewLocationWithPhysicalLocation(phys)
}

// numbers are left out of a fingerprint: seq numbers, ids and counts move
// from one recording to the next while the finding stays the same.
var numbers = regexp.MustCompile(`[0-9]+`)

// fingerprint is stable across runs: it hashes what the finding is (rule,
// party, check, message without numbers), not where the trace put it; the
// occurrence count keeps identical findings of one run apart.
func (b *sarifRun) fingerprint(rule, party, check, message string) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{rule, party, check, numbers.ReplaceAllString(message, "#")}, "\x00")))
	key := hex.EncodeToString(sum[:16])
	b.prints[key]++
	return fmt.Sprintf("%s:%d", key, b.prints[key])
}

// uriPath escapes a slash-separated relative path as a URI reference.
func uriPath(p string) string {
	return (&url.URL{Path: filepath.ToSlash(p)}).EscapedPath()
}

// fileURI turns an absolute path into a file: URI.
func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
