package prompts

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// judgePromptContent holds the image, audio and embedded resource content
// of a prompt's messages to what the prompts page requires of each.
func judgePromptContent(s *engine.Session, m *message.Msg, name string) {
	for _, b := range message.ResultContent(m) {
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

func judgeMedia(s *engine.Session, m *message.Msg, check, name string, b *message.ContentItem) {
	problem := message.MimeProblem(b.MimeType.Ptr())
	switch {
	case !b.Data.Set:
		problem = "it has no data"
	case !message.IsBase64(b.Data.Val):
		problem = "its data " + message.Preview(b.Data.Val) + " is not base64"
	}
	s.Expect(check, problem == "", spec.Server, m.Event, "prompts/get %q returned %s content where %s", name, b.Type, problem)
}

// embeddedProblem says what an embedded resource lacks of "a valid resource
// URI, the appropriate MIME type, either text content or base64-encoded
// blob data", or "" when it has them all.
func embeddedProblem(r *message.ResourceContents) string {
	switch {
	case r == nil:
		return "it has no resource member"
	case !r.URI.Set:
		return "the resource has no uri"
	case engine.URIProblem(r.URI.Val) != "":
		return "its uri " + message.Preview(r.URI.Val) + " is not a URI: " + engine.URIProblem(r.URI.Val)
	case message.MimeProblem(r.MimeType.Ptr()) != "":
		return message.MimeProblem(r.MimeType.Ptr())
	case !r.Text.Set && !r.Blob.Set:
		return "the resource has neither text nor blob"
	case r.Blob.Set && !message.IsBase64(r.Blob.Val):
		return "its blob " + message.Preview(r.Blob.Val) + " is not base64"
	}
	return ""
}
