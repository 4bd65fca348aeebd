package sign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// Audience is the audience Fulcio expects of an OIDC token.
const Audience = "sigstore"

// ErrNoAmbientToken says no OIDC token can be had from the environment: not
// on GitHub Actions, or a job without `permissions: id-token: write`.
var ErrNoAmbientToken = errors.New("no OIDC token: not on GitHub Actions, or the job lacks `permissions: id-token: write` (outside Actions, pass --identity-token)")

// GitHubToken asks the GitHub Actions token service for an OIDC token with
// the sigstore audience, as ACTIONS_ID_TOKEN_REQUEST_URL and
// ACTIONS_ID_TOKEN_REQUEST_TOKEN (read through getenv) allow.
func GitHubToken(ctx context.Context, client *http.Client, getenv func(string) string) (string, error) {
	requestURL, bearer := getenv("ACTIONS_ID_TOKEN_REQUEST_URL"), getenv("ACTIONS_ID_TOKEN_REQUEST_TOKEN")
	if requestURL == "" || bearer == "" {
		return "", ErrNoAmbientToken
	}
	u, err := url.Parse(requestURL)
	if err != nil {
		return "", fmt.Errorf("ACTIONS_ID_TOKEN_REQUEST_URL: %w", err)
	}
	q := u.Query()
	q.Set("audience", Audience)
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "bearer "+bearer)
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("could not get an OIDC token from GitHub Actions: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("could not get an OIDC token from GitHub Actions: status %d: %.200s", resp.StatusCode, body)
	}
	var tok struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal(body, &tok); err != nil || tok.Value == "" {
		return "", fmt.Errorf("could not get an OIDC token from GitHub Actions: the answer holds no token")
	}
	return tok.Value, nil
}
