package wireschema

import (
	"github.com/mcpverdict/mcpverdict/internal/rawjson"
	"github.com/mcpverdict/mcpverdict/internal/rawschema"
)

// fastForm is a definition's fast form, and, where it parts at the member
// that carries a message's payload (params, result, error), the shell
// around that member and the member's own schema: the payload is what
// repeats from message to message, the shell holds the id that does not.
type fastForm struct {
	whole       *rawschema.Schema
	member      string
	shell, part *rawschema.Schema
}

// payloadMembers are the members a definition may part at, in the order
// tried.
var payloadMembers = []string{"params", "result"}

// fastForms compiles every definition's fast form once, before the
// Validator is shared.
func fastForms(doc any, defsKey string, defs map[string]bool) map[string]*fastForm {
	d := rawschema.NewDocument(doc, wireFormats)
	out := map[string]*fastForm{}
	for name := range defs {
		s := d.Definition("#/" + defsKey + "/" + name)
		if s == nil {
			continue
		}
		f := &fastForm{whole: s}
		for _, member := range payloadMembers {
			if shell, part, ok := s.Split(member); ok {
				f.member, f.shell, f.part = member, shell, part
				break
			}
		}
		out[name] = f
	}
	return out
}

// provenValid reports whether the fast form of the target's definition
// proves its text valid, which spares decoding it and the full validator.
// A payload proven valid before is not walked again.
func (v *Validator) provenValid(t target, proven *provenTexts) bool {
	f := v.fast[t.def]
	switch {
	case f == nil || t.checked.Bytes() == nil:
		return false
	case f.shell != nil && t.member.Bytes() != nil:
		return f.shell.ValidKnowing(t.checked, t.member) && proven.valid(f.part, t.member)
	case t.pointer != "":
		return proven.valid(f.whole, t.checked) // a result member: no id in it
	}
	return f.whole.Valid(t.checked, false)
}

// minProvenText is the shortest text remembered as proven: a shorter one
// costs less to walk again than to look up.
const minProvenText = 128

// provenTexts remembers, for each fast form, the texts it proved valid;
// bounded as seenTexts is. A nil provenTexts remembers nothing.
type provenTexts struct {
	texts map[provenKey]struct{}
	bytes int
}

type provenKey struct {
	s    *rawschema.Schema
	text string
}

func (p *provenTexts) valid(s *rawschema.Schema, text rawjson.Checked) bool {
	b := text.Bytes()
	if p == nil || len(b) < minProvenText {
		return s.Valid(text, false)
	}
	if _, ok := p.texts[provenKey{s, string(b)}]; ok {
		return true
	}
	if !s.Valid(text, false) {
		return false
	}
	if len(b) <= maxSeenBytes/4 {
		if p.texts == nil || p.bytes+len(b) > maxSeenBytes {
			p.texts, p.bytes = map[provenKey]struct{}{}, 0
		}
		p.texts[provenKey{s, string(b)}] = struct{}{}
		p.bytes += len(b)
	}
	return true
}
