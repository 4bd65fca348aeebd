package ledger

import (
	"fmt"
	"os"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/outfile"
)

// Provenance is the first block of every mcpverdict ledger: which program
// wrote it, how it was invoked and when. Timestamps are metadata: they are
// hashed like the rest, but nothing is judged by them.
type Provenance struct {
	Ledger  string   `json:"ledger"`
	Format  string   `json:"format"`
	Tool    string   `json:"tool"`
	Version string   `json:"version"`
	Command []string `json:"command"`
	// StartedAt is when the run began and WrittenAt when its ledger was
	// written, RFC 3339 in UTC.
	StartedAt string `json:"started_at"`
	WrittenAt string `json:"written_at,omitempty"`
	// CI names the GitHub Actions run, when there is one.
	CI map[string]string `json:"ci,omitempty"`
	// Build is the binary's version line (version, commit, Go version)
	// and Toolchains the runtimes on the machine: what else would explain
	// a run another machine does not reproduce.
	Build      string            `json:"build,omitempty"`
	Toolchains map[string]string `json:"toolchains,omitempty"`
}

// NewProvenance describes a run of version invoked as command, started at
// start; getenv reads GITHUB_* variables (nil: none).
func NewProvenance(version string, command []string, start time.Time, getenv func(string) string) Provenance {
	p := Provenance{
		Ledger: FormatName, Format: FormatVersion, Tool: "mcpverdict", Version: version,
		Command: command, StartedAt: start.UTC().Format(time.RFC3339),
	}
	if getenv == nil {
		return p
	}
	for _, key := range []string{"GITHUB_REPOSITORY", "GITHUB_SHA", "GITHUB_REF", "GITHUB_RUN_ID", "GITHUB_RUN_ATTEMPT", "GITHUB_WORKFLOW_REF", "GITHUB_SERVER_URL"} {
		if v := getenv(key); v != "" {
			if p.CI == nil {
				p.CI = map[string]string{}
			}
			p.CI[key] = v
		}
	}
	return p
}

// File is a ledger being written to a path; nothing appears there until
// Commit, so a failed run leaves no half-written ledger.
type File struct {
	*Writer
	out  *outfile.File
	path string
}

// Create starts a ledger at path whose first block is prov.
func Create(path string, prov Provenance) (*File, error) {
	out, err := outfile.Create(path)
	if err != nil {
		return nil, err
	}
	f := &File{Writer: NewWriter(out), out: out, path: path}
	if prov.WrittenAt == "" {
		prov.WrittenAt = time.Now().UTC().Format(time.RFC3339)
	}
	if _, err := f.Append("provenance", prov); err != nil {
		out.Abort()
		return nil, err
	}
	return f, nil
}

// Commit writes the ledger out and, when headPath is set, the head beside
// it (one line, "sha256:…"). It returns the head.
func (f *File) Commit(headPath string) (string, error) {
	if err := f.Flush(); err != nil {
		f.out.Abort()
		return "", fmt.Errorf("cannot write %s: %w", f.path, err)
	}
	if err := f.out.Commit(); err != nil {
		return "", err
	}
	if headPath != "" {
		if err := outfile.WriteFile(headPath, []byte(f.Head()+"\n")); err != nil {
			os.Remove(f.path) // a ledger without its head is not kept either
			return "", err
		}
	}
	return f.Head(), nil
}

// Abort discards the ledger; it is a no-op after Commit.
func (f *File) Abort() { f.out.Abort() }
