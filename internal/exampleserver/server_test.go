//lint:file-ignore SA1019 the tests check the logging capability, deprecated only from 2026-07-28 on.

package exampleserver

import (
	"slices"
	"strings"
	"testing"
)

// The --help text and the readme are only useful while they name what the
// server really offers.
func TestDescriptionAndInstructionsNameEveryFeature(t *testing.T) {
	e := &exampleServer{notes: newNoteStore()}
	names := slices.Clone(wantTools)
	for _, def := range e.promptDefs() {
		names = append(names, def.prompt.Name)
	}
	for _, r := range staticResources() {
		names = append(names, r.resource.URI)
	}
	names = append(names, noteTemplate)
	for _, name := range names {
		if !strings.Contains(Description, name) {
			t.Errorf("Description does not mention %s", name)
		}
		if !strings.Contains(instructions, name) {
			t.Errorf("instructions do not mention %s", name)
		}
	}
}

func TestRegisteredToolsAreTheDescribedOnes(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	for name := range toolsByName(t, cs) {
		if !strings.Contains(Description, "\n  "+name+" ") {
			t.Errorf("tool %s is not in the Description's tool table", name)
		}
	}
}

func TestCapabilities(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	caps := cs.InitializeResult().Capabilities
	if caps.Tools == nil || caps.Tools.ListChanged || caps.Prompts == nil || caps.Prompts.ListChanged {
		t.Errorf("tools and prompts never change, so must not claim listChanged: %+v %+v", caps.Tools, caps.Prompts)
	}
	if caps.Resources == nil || !caps.Resources.ListChanged || !caps.Resources.Subscribe {
		t.Errorf("resources = %+v, want listChanged and subscribe", caps.Resources)
	}
	if caps.Completions == nil || caps.Logging == nil {
		t.Errorf("completions %v, logging %v", caps.Completions, caps.Logging)
	}
}

func TestRateLimitRefusesFloods(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, rev20251125)
	const flood = 10 * requestBurst // more than the bucket refills in any plausible run time
	var refused int64
	for range flood {
		if _, err := cs.ListPrompts(testContext(t), nil); err != nil {
			refused = wireCode(t, err)
			break
		}
	}
	if refused != codeRateLimited {
		t.Errorf("a flood of %d requests was not refused (code %d)", flood, refused)
	}
	if err := cs.Ping(testContext(t), nil); err != nil {
		t.Errorf("ping must be answered even when rate limited: %v", err)
	}
}
