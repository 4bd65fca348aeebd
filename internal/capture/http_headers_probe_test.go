package capture

import (
	"net/http"
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
