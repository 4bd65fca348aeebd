package action

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	usesLine  = regexp.MustCompile(`(?m)^\s*(?:-\s+)?uses:\s*(\S+)(.*)$`)
	pinnedUse = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$`)
)

// Every action a workflow uses is pinned by commit SHA with the version it
// names in a comment (a tag can be moved; a SHA cannot), or is this
// repository's own (./).
func TestWorkflowActionsArePinned(t *testing.T) {
	paths, err := filepath.Glob(repoFile(".github/workflows/*.yml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no workflows: %v", err)
	}
	for _, p := range paths {
		for _, m := range usesLine.FindAllStringSubmatch(readRepoFile(t, filepath.Join(".github", "workflows", filepath.Base(p))), -1) {
			if m[1] == "./" {
				continue
			}
			if !pinnedUse.MatchString(m[1]) || !regexp.MustCompile(`#\s*v\d`).MatchString(m[2]) {
				t.Errorf("%s: uses %s%s is not pinned by SHA with its version in a comment", filepath.Base(p), m[1], m[2])
			}
		}
	}
}

// The release workflow builds the action's stage for both runner
// platforms, signs and attests what it pushed, and releases an action.yml
// that names that image by digest.
func TestReleaseWorkflow(t *testing.T) {
	text := readRepoFile(t, ".github/workflows/release.yml")
	for _, want := range []string{
		"target: runtime", "platforms: linux/amd64,linux/arm64", "push: true",
		`cosign sign --yes "${IMAGE}@${DIGEST}"`, "actions/attest-build-provenance@", "subject-digest: ${{ steps.build.outputs.digest }}",
		`go run ./internal/devtools/releaseaction -image "${IMAGE}@${DIGEST}" action.yml`, "id-token: write", "gh release create",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("release.yml lacks %q", want)
		}
	}
}
