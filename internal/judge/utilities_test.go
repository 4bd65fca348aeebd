package judge

import (
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// Each credential pattern finds its kind of secret and leaves look-alikes
// alone: a finding must be a secret, not a guess.
func TestCredentialPatterns(t *testing.T) {
	secrets := map[string]string{
		"a private key":        `"-----BEGIN RSA PRIVATE KEY-----\nMIIE..."`,
		"an AWS access key id": `{"key":"AKIAIOSFODNN7EXAMPLE"}`,
		"a GitHub token":       `"token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"`,
		"a Slack token":        `"xoxb-123456789012-abcdefghij"`,
		"a Google API key":     `"AIzaSyA1234567890abcdefghijklmnopqrstuv"`,
		"a Stripe secret key":  `"sk_live_0123456789abcdefghijklmn"`,
		"a JSON Web Token":     `"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"`,
		"a bearer token":       `"Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345"`,
	}
	for name, text := range secrets {
		if got, _ := engine.FindCredential([]byte(text)); got != name {
			t.Errorf("%s: found %q in %s", name, got, text)
		}
	}
	harmless := []string{
		`{"password":"hunter2"}`,            // a word is not a credential
		`"ghp_short"`,                       // too short for a token
		`"bearer of bad news arrives"`,      // prose
		`"AKIA lowercase akiaiosfodnn7exa"`, // not the key's form
		`"-----BEGIN PUBLIC KEY-----"`,      // public keys are not secrets
		`"eyJhbGciOiJIUzI1NiJ9"`,            // one JWT segment alone
	}
	for _, text := range harmless {
		if got, _ := engine.FindCredential([]byte(text)); got != "" {
			t.Errorf("found %s in harmless %s", got, text)
		}
	}
}

// objectKeys sees a key written twice at the top level only; nested
// objects may repeat their own keys without making the outer ones clash.
func TestObjectKeys(t *testing.T) {
	cases := []struct {
		raw  string
		keys []string
		dup  string
	}{
		{`{"a":1,"b":{"x":1,"x":2}}`, []string{"a", "b"}, ""},
		{`{"a":1,"b":2,"a":3}`, []string{"a", "b"}, "a"},
		{`[1,2]`, nil, ""},
	}
	for _, c := range cases {
		keys, dup := engine.ObjectKeys([]byte(c.raw))
		if dup != c.dup || len(keys) != len(c.keys) {
			t.Errorf("%s: keys %v dup %q, want %v %q", c.raw, keys, dup, c.keys, c.dup)
		}
	}
}

// boundedKeys forgets its oldest keys past the limit and says so.
func TestBoundedKeys(t *testing.T) {
	b := message.NewBoundedKeys(2)
	b.Add("a")
	b.Add("b")
	b.Add("a") // already there: no eviction
	if b.Forgot || !b.Has("a") {
		t.Fatal("re-adding a key evicted one")
	}
	b.Add("c")
	if !b.Forgot || b.Has("a") || !b.Has("b") || !b.Has("c") {
		t.Errorf("after a third key: forgot=%v a=%v b=%v c=%v", b.Forgot, b.Has("a"), b.Has("b"), b.Has("c"))
	}
}

// The bearer pattern reads its word in any case; so must its prefilter.
func TestBearerInAnyCase(t *testing.T) {
	for _, text := range []string{`"BEARER abcdefghijklmnopqrstuvwxyz012345"`, `"x bEaReR abcdefghijklmnopqrstuvwxyz012345"`} {
		if got, _ := engine.FindCredential([]byte(text)); got != "a bearer token" {
			t.Errorf("found %q in %s", got, text)
		}
	}
}
