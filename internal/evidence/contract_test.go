package evidence

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

func TestPublishedToolVectors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "corpus", "contracts", "tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vf struct {
		Tools []struct {
			Served       json.RawMessage   `json:"served"`
			Fingerprints map[Recipe]string `json:"fingerprints"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(b, &vf); err != nil {
		t.Fatal(err)
	}
	for _, tool := range vf.Tools {
		served, err := canon.Decode(tool.Served)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range Recipes() {
			got, err := Fingerprint(FromServed(served), r)
			if err != nil || got != tool.Fingerprints[r] {
				t.Errorf("%s recipe %s: %s (%v), want %s", tool.Served[:40], r, got, err, tool.Fingerprints[r])
			}
		}
	}
}

func TestEachRecipeWidensTheOneBefore(t *testing.T) {
	base, _ := canon.Decode([]byte(`{"name":"t","description":"d","input_schema":{"type":"object"}}`))
	changes := map[string]Recipe{"output_schema": Recipe2, "annotations": Recipe2, "title": Recipe3, "execution": Recipe3}
	for field, from := range changes {
		changed := base
		changed.Members = append(append([]canon.Member(nil), base.Members...), canon.Member{Key: field, Value: canon.StringValue("x")})
		for _, r := range Recipes() {
			a, _ := Fingerprint(base, r)
			b, _ := Fingerprint(changed, r)
			if (a != b) != (r >= from) {
				t.Errorf("%s under recipe %s: changed=%v", field, r, a != b)
			}
		}
	}
}
