// Package wireschema holds every MCP message to its revision's JSON Schema
// (the specification's schema.json), dispatching on the method of a request
// or notification, on the request a result answers, and on errors.
//
// The schemas are not in this repository. They are found, in order, under
// --schema-dir, MCPVERDICT_SCHEMA_DIR, the copy baked into the container
// image, and the user cache that `mcpverdict schema fetch` fills from the
// specification repository at a pinned commit, each checked against a pinned
// SHA-256.
package wireschema

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// SpecCommit is the specification repository commit the pins below name.
const SpecCommit = "b0f60ba5409db7a6582440a7b473cc0398890f15"

// Pins are the SHA-256 of schema/<revision>/schema.json at SpecCommit.
var Pins = map[string]string{
	"2024-11-05": "61cea2392d4f284092d09bc84b9ac488c0d5618ac2b38a56942fc5b99fd960ce",
	"2025-03-26": "e720669548c8100a4282c49e580efd6ddf7f28899ea786fc8db251dbdb356131",
	"2025-06-18": "af845e7e5b9d27107d1690f0936022546177a1403e63ffb11470135b296a2e01",
	"2025-11-25": "268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7",
	"2026-07-28": "ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203",
}

// ImageDir is where the container image bakes the schemas in.
const ImageDir = "/usr/share/mcpverdict/schema"

// EnvDir names the environment variable that points at a schema directory.
const EnvDir = "MCPVERDICT_SCHEMA_DIR"

// FixHint is what the report tells a user whose schemas are missing.
const FixHint = "run `mcpverdict schema fetch`, or pass --schema-dir DIR (DIR/<revision>/schema.json)"

// CacheDir is the user cache `schema fetch` fills.
func CacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "mcpverdict", "schema", SpecCommit[:12]), nil
}

// Candidates lists the directories searched, in order, for flagDir and the
// environment's value envDir (either may be empty).
func Candidates(flagDir, envDir string) []string {
	var dirs []string
	for _, d := range []string{flagDir, envDir, ImageDir} {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	if c, err := CacheDir(); err == nil {
		dirs = append(dirs, c)
	}
	return dirs
}

// ErrNotFound means no candidate directory holds the revision's schema.
var ErrNotFound = errors.New("no schema found")

// Find returns the first candidate's schema.json for rev. An explicitly
// named directory (the first candidates) that lacks it is not an error:
// the search goes on, and ErrNotFound says where it looked.
func Find(dirs []string, rev string) (path string, err error) {
	for _, d := range dirs {
		p := filepath.Join(d, rev, "schema.json")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w for revision %s in %v", ErrNotFound, rev, dirs)
}

// CheckPin verifies data against the pinned SHA-256 of rev; a revision
// without a pin (a user's own schema directory) is accepted as it is.
func CheckPin(rev string, data []byte) error {
	want, ok := Pins[rev]
	if !ok {
		return nil
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("schema for %s has sha256 %s, want %s (pinned at spec commit %.12s)", rev, got, want, SpecCommit)
	}
	return nil
}
