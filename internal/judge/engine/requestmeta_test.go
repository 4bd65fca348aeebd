package engine

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestCapsDeclares(t *testing.T) {
	for _, tc := range []struct {
		caps, capability string
		want             bool
	}{
		{`{"elicitation":{}}`, "elicitation.form", true},
		{`{"elicitation":{"form":{}}}`, "elicitation.form", true},
		{`{"elicitation":{"url":{}}}`, "elicitation.form", false},
		{`{"elicitation":{}}`, "elicitation.url", false},
		{`{"sampling":{}}`, "sampling", true},
		{`{"sampling":{}}`, "sampling.tools", false},
		{`{}`, "roots", false},
	} {
		if got := ParseCaps(json.RawMessage(tc.caps)).Declares(tc.capability); got != tc.want {
			t.Errorf("%s declares %s: %v, want %v", tc.caps, tc.capability, got, tc.want)
		}
	}
}

func TestCapabilityPaths(t *testing.T) {
	var caps map[string]any
	_ = json.Unmarshal([]byte(`{"roots":{},"elicitation":{"url":{}},"sampling":{"tools":{},"context":{}}}`), &caps)
	want := []string{"elicitation.url", "roots", "sampling.context", "sampling.tools"}
	if got := CapabilityPaths(caps, ""); !slices.Equal(got, want) {
		t.Errorf("capabilityPaths = %q, want %q", got, want)
	}
}

func TestExtensionIDProblem(t *testing.T) {
	for id, ok := range map[string]bool{
		"io.modelcontextprotocol/ui": true, "com.example/": true, "tasks": false,
		"example..com/x": false, "com.example/x-": false, "9com.example/x": false,
	} {
		if got := ExtensionIDProblem(id) == ""; got != ok {
			t.Errorf("%q: valid %v, want %v (%s)", id, got, ok, ExtensionIDProblem(id))
		}
	}
}
