package judge

import (
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// judgePromptContent holds the image, audio and embedded resource content
// of a prompt's messages to what the prompts page requires of each.
func judgePromptContent(s *Session, m *Msg, name string) {
	for _, b := range resultContent(m) {
		switch b.Type {
		case "image":
			judgeMedia(s, m, "prompts.image-content", name, &b)
		case "audio":
			judgeMedia(s, m, "prompts.audio-content", name, &b)
		case "resource":
			problem := embeddedProblem(b.Resource)
			s.Expect("prompts.embedded-resource", problem == "", spec.Server, m.Event,
				"prompts/get %q returned an embedded resource where %s", name, problem)
		}
	}
}

func judgeMedia(s *Session, m *Msg, check, name string, b *contentItem) {
	problem := mimeProblem(b.MimeType.ptr())
	switch {
	case !b.Data.set:
		problem = "it has no data"
	case !isBase64(b.Data.val):
		problem = "its data " + preview(b.Data.val) + " is not base64"
	}
	s.Expect(check, problem == "", spec.Server, m.Event, "prompts/get %q returned %s content where %s", name, b.Type, problem)
}

// embeddedProblem says what an embedded resource lacks of "a valid resource
// URI, the appropriate MIME type, either text content or base64-encoded
// blob data", or "" when it has them all.
func embeddedProblem(r *resourceContents) string {
	switch {
	case r == nil:
		return "it has no resource member"
	case !r.URI.set:
		return "the resource has no uri"
	case uriProblem(r.URI.val) != "":
		return "its uri " + preview(r.URI.val) + " is not a URI: " + uriProblem(r.URI.val)
	case mimeProblem(r.MimeType.ptr()) != "":
		return mimeProblem(r.MimeType.ptr())
	case !r.Text.set && !r.Blob.set:
		return "the resource has neither text nor blob"
	case r.Blob.set && !isBase64(r.Blob.val):
		return "its blob " + preview(r.Blob.val) + " is not base64"
	}
	return ""
}
