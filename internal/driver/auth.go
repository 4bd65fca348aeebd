package driver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// Authorization is the part of the OAuth flow the driver follows: enough
// for the recording to show how the server asks for a token and what it
// does with one, never a login at an authorization server.

// authProbeTimeout bounds each request of the authorization probe.
const authProbeTimeout = 10 * time.Second

// AuthProbe is what the probe learned.
type AuthProbe struct {
	// Required is set when a request without credentials got 401.
	Required bool
	// Metadata is set when protected resource metadata was served.
	Metadata bool
}

var resourceMetadataValue = regexp.MustCompile(`(?i)resource_metadata\s*=\s*"?([^",\s]+)`)

// ProbeAuthorization asks the endpoint for its event stream without
// credentials; on 401 it fetches the protected resource metadata the
// challenge names (RFC 9728 section 5.1), or, when it names none, tries
// the well-known URIs under the endpoint's path and at the root, in that
// order. Every request goes to the endpoint's origin, so that a recording
// proxy there records it: a metadata URL on another origin is asked for by
// its path.
func ProbeAuthorization(ctx context.Context, client *http.Client, endpoint string) (AuthProbe, error) {
	var probe AuthProbe
	base, err := url.Parse(endpoint)
	if err != nil {
		return probe, err
	}
	resp, err := authGet(ctx, client, base.String())
	if err != nil {
		return probe, err
	}
	if resp.StatusCode != http.StatusUnauthorized {
		return probe, nil
	}
	probe.Required = true
	for _, path := range metadataPaths(base, resp.Header.Get("WWW-Authenticate")) {
		u := *base
		u.Path, u.RawQuery = path, ""
		meta, err := authGet(ctx, client, u.String())
		if err != nil {
			return probe, err
		}
		if meta.StatusCode == http.StatusOK {
			probe.Metadata = true
			break
		}
	}
	return probe, nil
}

// metadataPaths lists where to ask for the metadata: the path of the URL
// the challenge names, or else the two well-known URIs.
func metadataPaths(endpoint *url.URL, challenge string) []string {
	if m := resourceMetadataValue.FindStringSubmatch(challenge); m != nil {
		if u, err := url.Parse(m[1]); err == nil && u.Path != "" {
			return []string{u.Path}
		}
	}
	const wellKnown = "/.well-known/oauth-protected-resource"
	if p := strings.TrimSuffix(endpoint.Path, "/"); p != "" {
		return []string{wellKnown + p, wellKnown}
	}
	return []string{wellKnown}
}

// authGet sends one GET without credentials and reads the answer whole;
// the endpoint is asked for an event stream, as a client opening its GET
// stream would.
func authGet(ctx context.Context, client *http.Client, target string) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, authProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	if strings.Contains(req.URL.Path, "/.well-known/") {
		req.Header.Set("Accept", "application/json")
	} else {
		req.Header.Set("Accept", "text/event-stream")
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	// An event stream that opened is closed at once: the probe wants its
	// status, and a stream would last as long as the server keeps it.
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	}
	resp.Body.Close()
	return resp, nil
}

// AuthProbes are the rejection probes of a session with a bearer token.
func AuthProbes() []Probe { return []Probe{ProbeQueryToken, ProbeInvalidToken} }

// authProber is a Conn that can send the authorization probes' requests.
type authProber interface {
	SendAuthProbe(ctx context.Context, probe Probe) error
}

// authProbe opens the session's GET stream as probe says: with the token
// in the query string and no Authorization header, or with a made-up token
// in the header; a resource server must refuse either with 401.
func (d *run) authProbe(ctx context.Context, probe Probe) error {
	q, ok := d.client.conn.(authProber)
	if !ok {
		return fmt.Errorf("probe %s needs a streamable-HTTP connection with a token", probe)
	}
	return q.SendAuthProbe(ctx, probe)
}

// SendAuthProbe is an authorization probe's request.
func (c *httpConn) SendAuthProbe(ctx context.Context, probe Probe) error {
	if c.opts.BearerToken == "" {
		return fmt.Errorf("probe %s needs a token (--auth-token)", probe)
	}
	u, err := url.Parse(c.opts.URL)
	if err != nil {
		return err
	}
	if probe == ProbeQueryToken {
		u.RawQuery = url.Values{"access_token": {c.opts.BearerToken}}.Encode()
	}
	ctx, cancel := context.WithTimeout(ctx, authProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return errWithoutQuery(err)
	}
	c.sessionHeaders(req.Header)
	req.Header.Del("Authorization")
	if probe == ProbeInvalidToken {
		req.Header.Set("Authorization", trace.InvalidTokenCredential)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.client.Do(req)
	if err != nil {
		return errWithoutQuery(err)
	}
	resp.Body.Close()
	return nil
}

// errWithoutQuery drops the URL, which holds the token, from an error.
func errWithoutQuery(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}
