package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// The repository's own action.yml becomes a release's: runs.image names
// the image by digest, and nothing else changes.
func TestPinImageOnTheRealActionYML(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, image := range []string{"ghcr.io/mcpverdict/mcpverdict@" + digest, "127.0.0.1:5000/mcpverdict/action@" + digest} {
		out, err := pinImage(string(data), image)
		if err != nil {
			t.Fatal(err)
		}
		var meta struct{ Runs struct{ Using, Image string } }
		if err := yaml.Unmarshal([]byte(out), &meta); err != nil {
			t.Fatal(err)
		}
		if meta.Runs.Using != "docker" || meta.Runs.Image != "docker://"+image {
			t.Errorf("runs %+v", meta.Runs)
		}
		if strings.Replace(out, "docker://"+image, "Dockerfile", 1) != string(data) {
			t.Error("pinImage changed more than runs.image")
		}
	}
}

// A tag, a bare name or an action.yml already released is refused.
func TestPinImageRefuses(t *testing.T) {
	yml := "runs:\n  using: docker\n  image: Dockerfile\n"
	for _, image := range []string{"ghcr.io/mcpverdict/mcpverdict:v1.2.0", "mcpverdict@" + digest, "ghcr.io/x/y@sha256:abc", ""} {
		if _, err := pinImage(yml, image); err == nil {
			t.Errorf("%q was accepted", image)
		}
	}
	if _, err := pinImage("runs:\n  image: docker://ghcr.io/x/y@"+digest+"\n", "ghcr.io/x/y@"+digest); err == nil {
		t.Error("an action.yml without image: Dockerfile was accepted")
	}
}
