package sign

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

var headPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// HeadFileBytes is the content of a head file: the head and a newline.
func HeadFileBytes(head string) []byte { return []byte(head + "\n") }

// Predicate is what the statement says about the head.
type Predicate struct {
	// Head is the ledger head, "sha256:…".
	Head string `json:"head"`
	// Ledger is the ledger's file name, Blocks its length and Format its
	// format, when known.
	Ledger string `json:"ledger,omitempty"`
	Blocks int    `json:"blocks,omitempty"`
	Format string `json:"format,omitempty"`
	// Signer is the mcpverdict version that signed.
	Signer string `json:"signer"`
}

type subject struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

type statement struct {
	Type          string    `json:"_type"`
	Subject       []subject `json:"subject"`
	PredicateType string    `json:"predicateType"`
	Predicate     Predicate `json:"predicate"`
}

// Statement returns the in-toto statement (v1) over p.Head.
func Statement(p Predicate) ([]byte, error) {
	if !headPattern.MatchString(p.Head) {
		return nil, fmt.Errorf("%q is not a ledger head: expected sha256: and 64 lowercase hex digits", p.Head)
	}
	fileSum := sha256.Sum256(HeadFileBytes(p.Head))
	return json.Marshal(statement{
		Type: "https://in-toto.io/Statement/v1",
		Subject: []subject{
			{Name: HeadSubject, Digest: map[string]string{"sha256": strings.TrimPrefix(p.Head, "sha256:")}},
			{Name: HeadFileSubject, Digest: map[string]string{"sha256": hex.EncodeToString(fileSum[:])}},
		},
		PredicateType: PredicateType,
		Predicate:     p,
	})
}

// ReadHeadFile reads a head file ("sha256:…" and a newline).
func ReadHeadFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cannot read the head: %w", err)
	}
	head := strings.TrimSpace(string(b))
	if !headPattern.MatchString(head) {
		return "", fmt.Errorf("%s: %q is not a ledger head", path, head)
	}
	return head, nil
}
