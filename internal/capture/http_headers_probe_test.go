package capture

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// The invalid-token probe's made-up credential is public and kept, so the
// judge knows which request carried it; any other Authorization value,
// however close, is recorded as present only.
func TestOnlyTheProbesMadeUpTokenIsKept(t *testing.T) {
	cases := map[string]string{
		trace.InvalidTokenCredential:                trace.InvalidTokenCredential,
		"Bearer 0123456789abcdef":                   redacted,
		trace.InvalidTokenCredential + "x":          redacted,
		"Basic " + trace.InvalidTokenCredential[7:]: redacted,
	}
	for value, want := range cases {
		got := recordedHeaders(http.Header{"Authorization": {value}})["authorization"]
		if got != want {
			t.Errorf("Authorization %q recorded as %q, want %q", value, got, want)
		}
	}
	if got := recordedHeaders(http.Header{"X-Api-Key": {trace.InvalidTokenCredential}})["x-api-key"]; got != redacted {
		t.Errorf("another credential header holding the probe's value was recorded as %q", got)
	}
}

// A query shows in the recorded path by its names alone, and only when one
// names a credential: the session id an HTTP with SSE endpoint carries in
// its query stays out, so the POSTs still match the endpoint's path.
func TestRecordedPathKeepsOnlyCredentialQueryNames(t *testing.T) {
	cases := map[string]string{
		"/mcp":                           "/mcp",
		"/messages?sessionId=abc":        "/messages",
		"/mcp?access_token=s3cr3t":       "/mcp?access_token=[redacted]",
		"/mcp?page=2&Api-Key=s3cr3t":     "/mcp?page=[redacted]&Api-Key=[redacted]",
		"/mcp?%61ccess_token=s3cr3t&x=1": "/mcp?%61ccess_token=[redacted]&x=[redacted]",
		"/mcp?s3cr3t":                    "/mcp",
	}
	for raw, want := range cases {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := recordedPath(u); got != want {
			t.Errorf("%s recorded as %q, want %q", raw, got, want)
		}
	}
}
