package engine

import (
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// capDeclaration judges "clients that support X MUST declare the X
// capability". A client shows it supports X by answering the server's X
// request with a result. A handshake client must then have declared X at
// initialization. A 2026-07-28 client declares on each request the
// capabilities relevant to it, and X is plainly relevant both to the request
// the server answered with an X input request and to the retry that carries
// the client's answer: both must declare X.
type capDeclaration struct {
	check      string
	capability string
	method     string
}

func (d *capDeclaration) reply(s *Session, r *Reply) {
	if r.Result == nil || r.Ask.Caps == nil {
		return
	}
	if r.Ask.Key == "" {
		s.Expect(d.check, r.Ask.Caps.Has(d.capability), spec.Client, r.Event,
			"the client answered %s with a result but did not declare the %s capability", d.method, d.capability)
		return
	}
	missing := d.undeclaredIn(r)
	s.Expect(d.check, missing == "", spec.Client, r.Event,
		"the client answered input request %q (%s), so it supports %s, but %s does not declare it in _meta clientCapabilities",
		r.Ask.Key, d.method, d.capability, missing)
}

// undeclaredIn names which of the two requests of a round trip lack the
// capability, or "" when both declare it.
func (d *capDeclaration) undeclaredIn(r *Reply) string {
	inOriginal, inRetry := r.Ask.Caps.Has(d.capability), r.Caps.Has(d.capability)
	switch {
	case !inOriginal && !inRetry:
		return "neither the request it answers nor its retry"
	case !inOriginal:
		return "the request the server answered with it"
	case !inRetry:
		return "the retry carrying the answer"
	}
	return ""
}
