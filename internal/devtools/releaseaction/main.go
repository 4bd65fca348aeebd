// Command releaseaction rewrites action.yml for a release: the action runs
// the prebuilt image, pinned by digest, instead of building the Dockerfile
// on every workflow run. The release workflow runs it on the released
// commit; main keeps image: Dockerfile.
//
//	go run ./internal/devtools/releaseaction -image ghcr.io/OWNER/mcpverdict@sha256:… action.yml
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// imageRef is a registry image pinned by digest: no tag, nothing a
// registry could move later.
var imageRef = regexp.MustCompile(`^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\.[a-z0-9-]+)*(?::[0-9]+)?(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)+@sha256:[0-9a-f]{64}$`)

// dockerfileImage is the line main's action.yml carries.
const dockerfileImage = "  image: Dockerfile\n"

func main() {
	image := flag.String("image", "", "the released image, REGISTRY/NAME@sha256:DIGEST")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: releaseaction -image REGISTRY/NAME@sha256:DIGEST action.yml")
		os.Exit(2)
	}
	path := flag.Arg(0)
	data, err := os.ReadFile(path)
	if err == nil {
		var out string
		if out, err = pinImage(string(data), *image); err == nil {
			err = os.WriteFile(path, []byte(out), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "releaseaction: %s: %v\n", path, err)
		os.Exit(1)
	}
}

// pinImage replaces action.yml's runs.image: Dockerfile with the image,
// as docker://REF.
func pinImage(actionYML, image string) (string, error) {
	if !imageRef.MatchString(image) {
		return "", fmt.Errorf("-image %q is not REGISTRY/NAME@sha256:DIGEST (a digest, not a tag)", image)
	}
	if n := strings.Count(actionYML, dockerfileImage); n != 1 {
		return "", fmt.Errorf("want exactly one line %q under runs, found %d", strings.TrimSpace(dockerfileImage), n)
	}
	return strings.Replace(actionYML, dockerfileImage, "  image: docker://"+image+"\n", 1), nil
}
