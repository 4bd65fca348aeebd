package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/exampleserver"
)

// exampleAuthHTTP serves the example server with --auth and faults, and
// returns its endpoint and a token of the mcp scope its authorization-server
// stand-in granted, as a client_credentials client gets one.
func exampleAuthHTTP(t *testing.T, faults exampleserver.AuthFaults) (endpoint, token string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	urls, issuers := make(chan string, 1), make(chan string, 1)
	done := make(chan struct{})
	opts := exampleserver.HTTPOptions{Auth: true, Faults: faults, IssuerReady: func(u string) { issuers <- u }}
	go func() {
		defer close(done)
		exampleserver.ServeHTTPWith(ctx, "127.0.0.1:0", opts, func(u string) { urls <- u })
	}()
	t.Cleanup(func() { cancel(); <-done })
	issuer, endpoint := <-issuers, <-urls
	resp, err := http.PostForm(issuer+"/token", url.Values{"grant_type": {"client_credentials"}, "resource": {endpoint}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var grant struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&grant); err != nil || grant.AccessToken == "" {
		t.Fatalf("the stand-in granted no token (status %d): %v", resp.StatusCode, err)
	}
	return endpoint, grant.AccessToken
}

// authOutcomes runs check --url with the token and returns the outcome of
// every AUTH clause of the run's reports, by "REVISION CLAUSE", after
// holding every file the run wrote, and its output, to never holding the
// token.
func authOutcomes(t *testing.T, endpoint, token string, extra ...string) map[string]string {
	t.Helper()
	out := t.TempDir()
	t.Setenv("MCPVERDICT_TEST_TOKEN", token)
	args := append([]string{"check", "--url", endpoint, "--auth-token-env", "MCPVERDICT_TEST_TOKEN", "--out", out}, extra...)
	code, stdout, stderr := runCLI(t, args...)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if strings.Contains(stdout+stderr, token) {
		t.Error("the token shows in check's output")
	}
	noTokenIn(t, out, token)
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Trace, Revision string
			Clauses         []struct {
				Clause  struct{ ID string }
				Outcome string
			}
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	worst := map[string]string{}
	rank := map[string]int{"": 0, "not-applicable": 1, "excluded": 1, "not-observed": 2, "pass": 3, "warn": 4, "fail": 5}
	for _, run := range doc.Runs {
		for _, c := range run.Clauses {
			key := run.Revision + " " + c.Clause.ID
			if strings.HasPrefix(c.Clause.ID, "AUTH-") && rank[c.Outcome] > rank[worst[key]] {
				worst[key] = c.Outcome
			}
		}
	}
	return worst
}

// noTokenIn fails when any file under dir holds the token.
func noTokenIn(t *testing.T, dir, token string) {
	t.Helper()
	files := 0
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		if b, _ := os.ReadFile(path); strings.Contains(string(b), token) {
			t.Errorf("%s holds the bearer token", path)
		}
		return nil
	})
	if files == 0 {
		t.Errorf("check wrote nothing under %s", dir)
	}
}

func TestCheckWithABearerTokenPassesAuthorization(t *testing.T) {
	endpoint, token := exampleAuthHTTP(t, exampleserver.AuthFaults{})
	outcomes := map[string]string{}
	for _, rev := range []string{"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"} {
		for key, outcome := range authOutcomes(t, endpoint, token, "--revision", rev, "--probe-rejections") {
			outcomes[key] = outcome
		}
	}
	passed := 0
	for key, outcome := range outcomes {
		switch outcome {
		case "fail", "warn":
			t.Errorf("%s: %s", key, outcome)
		case "pass":
			passed++
		}
	}
	for _, key := range []string{"2025-06-18 AUTH-012", "2025-11-25 AUTH-012", "2025-11-25 AUTH-006", "2025-11-25 AUTH-047", "2025-11-25 AUTH-053", "2025-11-25 AUTH-052", "2026-07-28 AUTH-006", "2025-03-26 AUTH-020"} {
		if outcomes[key] != "pass" {
			t.Errorf("%s: %q, want pass", key, outcomes[key])
		}
	}
	t.Logf("%d AUTH clauses passed", passed)
}

// Each fault of the example server fails the clause it breaks.
func TestCheckFindsEachAuthorizationFault(t *testing.T) {
	cases := []struct {
		name             string
		faults           exampleserver.AuthFaults
		revision, clause string
		extra            []string
	}{
		// Under 2025-11-25 the metadata at the well-known URI makes good a
		// bare 401; under 2025-06-18 it does not.
		{"no-challenge", exampleserver.AuthFaults{NoChallenge: true}, "2025-06-18", "AUTH-012", nil},
		{"no-metadata", exampleserver.AuthFaults{NoMetadata: true}, "2025-11-25", "AUTH-006", nil},
		{"query-token", exampleserver.AuthFaults{QueryToken: true}, "2025-11-25", "AUTH-047", []string{"--probe-rejections"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			endpoint, token := exampleAuthHTTP(t, c.faults)
			outcomes := authOutcomes(t, endpoint, token, append([]string{"--revision", c.revision}, c.extra...)...)
			if got := outcomes[c.revision+" "+c.clause]; got != "fail" {
				t.Errorf("%s %s: %q, want fail", c.revision, c.clause, got)
			}
		})
	}
}

func TestCheckRefusesBadAuthFlags(t *testing.T) {
	t.Setenv("MCPVERDICT_EMPTY_TOKEN", "")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"check", "--auth-token", "abc"}, "need --url"},
		{[]string{"check", "--url", "http://127.0.0.1:9/mcp", "--auth-token", "abc", "--auth-token-env", "X"}, "give one"},
		{[]string{"check", "--url", "http://127.0.0.1:9/mcp", "--auth-token-env", "MCPVERDICT_EMPTY_TOKEN"}, "not set or empty"},
		{[]string{"check", "--url", "http://127.0.0.1:9/mcp", "--auth-token", "zq x\nc"}, "cannot have"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, stderr, c.want)
		}
		if strings.Contains(stderr, "zq x") {
			t.Errorf("%v: the message shows the token: %s", c.args, stderr)
		}
	}
}

// A server that asks for a token check was not given says how to give one.
func TestCheckWithoutATokenSaysHowToGiveOne(t *testing.T) {
	endpoint, _ := exampleAuthHTTP(t, exampleserver.AuthFaults{})
	_, stdout, stderr := runCLI(t, "check", "--url", endpoint, "--revision", "2025-11-25", "--out", t.TempDir())
	if !strings.Contains(stderr, "401 Unauthorized") || !strings.Contains(stderr, "--auth-token-env VAR") {
		t.Errorf("no hint at the token:\n%s\n%s", stdout, stderr)
	}
}
