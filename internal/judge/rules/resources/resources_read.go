package resources

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// internalError is JSON-RPC's code for an internal error.
const internalError = -32603

// notFoundCode is the error code a revision gives a missing resource:
// -32002 until 2025-11-25, -32602 (invalid params) from 2026-07-28.
func notFoundCode(s *engine.Session) int64 {
	if s.Revision.Before("2026-07-28") {
		return -32002
	}
	return engine.CodeInvalidParams
}

// read judges a resources/read response: a read of something that is not
// a URI, a read of a resource the server showed it does not have, and the
// contents returned.
func (r *resourcesRule) read(s *engine.Session, m *message.Msg) {
	uri := ParamsURI(&m.Request.ParamsMembers, m.Request.Params)
	if problem := r.readProblem(uri); problem != "" {
		judgeNonURIRead(s, m, uri, problem)
		return
	}
	absent := r.absent(uri)
	if m.Kind == message.KindError {
		if absent {
			judgeNotFoundError(s, m, uri)
		}
		return
	}
	if m.Kind != message.KindResult {
		return
	}
	var buf [1]message.ResourceContents // most reads return one: no allocation
	contents, ok := r.contentsRead(m, uri, buf[:0])
	if !ok {
		return
	}
	if absent && len(contents) == 0 {
		s.Fail("resources.no-empty-contents", spec.Server, m.Event,
			"resources/read of %s, a resource the server never listed and no template matches, was answered with empty contents", message.Preview(uri))
		s.Fail("resources.not-found-code", spec.Server, m.Event,
			"resources/read of %s, a resource the server never listed and no template matches, was answered with empty contents, not error %d", message.Preview(uri), notFoundCode(s))
	}
	r.judgeContents(s, m, uri, contents)
	r.mention(uri)
}

// judgeNonURIRead holds the server to refusing a read of something that is
// not a URI rather than serving it.
func judgeNonURIRead(s *engine.Session, m *message.Msg, uri, problem string) {
	succeeded := m.Kind == message.KindResult && !message.InputRequired(m.Result)
	s.Expect("resources.uri-validated", !succeeded, spec.Server, m.Event,
		"resources/read of %s, which is not a URI (%s), was answered with contents", message.Preview(uri), problem)
}

// judgeNotFoundError holds the error for a missing resource to the
// revision's code. An internal error may be just that, so it is not held.
func judgeNotFoundError(s *engine.Session, m *message.Msg, uri string) {
	code, isInt := m.Error.IntCode()
	if isInt && code == internalError {
		return
	}
	want := notFoundCode(s)
	s.Pass("resources.no-empty-contents", spec.Server)
	s.Expect("resources.not-found-code", isInt && code == want, spec.Server, m.Event,
		"resources/read of %s, a resource the server never listed and no template matches, was answered with error code %s, not %d", message.Preview(uri), codeOf(m), want)
}

func codeOf(m *message.Msg) string {
	if m.Error == nil || m.Error.Code == nil {
		return "none"
	}
	return string(m.Error.Code)
}

// judgeReadURI judges the URI of contents read of requested, a URI: most
// contents carry that one, which needs no second look.
func judgeReadURI(s *engine.Session, m *message.Msg, requested, uri string) {
	if uri == requested {
		s.Pass("resources.uri-syntax", spec.Server)
		return
	}
	judgeURISyntax(s, m, uri)
}

// judgeContents judges the contents read of requested, a URI.
func (r *resourcesRule) judgeContents(s *engine.Session, m *message.Msg, requested string, contents []message.ResourceContents) {
	for i := range contents {
		c := &contents[i]
		if c.URI.Set {
			judgeReadURI(s, m, requested, c.URI.Val)
			r.mention(c.URI.Val)
		}
		judgeBlob(s, m, c)
	}
}
