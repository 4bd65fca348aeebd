package action

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"
	"go.yaml.in/yaml/v3"

	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/judge"
)

func repoFile(name string) string { return filepath.Join("..", "..", name) }

type actionMetadata struct {
	Inputs  map[string]struct{ Default string } `yaml:"inputs"`
	Outputs map[string]struct{ Description string }
	Runs    struct {
		Using string
		Image string
		Args  []string
	}
}

func readMetadata(t *testing.T) actionMetadata {
	t.Helper()
	data, err := os.ReadFile(repoFile("action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var m actionMetadata
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return m
}

// action.yml declares exactly the inputs the entrypoint reads and the
// outputs it writes, and runs the entrypoint in the Dockerfile's image.
func TestActionMetadataMatchesTheEntrypoint(t *testing.T) {
	m := readMetadata(t)
	read := map[string]bool{}
	a := githubactions.New(githubactions.WithGetenv(func(k string) string {
		if name, ok := strings.CutPrefix(k, "INPUT_"); ok {
			read[strings.ToLower(name)] = true
		}
		return ""
	}))
	_, _ = readInputs(a, "/ws")
	if got, want := keys(read), keysOf(m.Inputs); got != want {
		t.Errorf("the entrypoint reads inputs %s; action.yml declares %s", got, want)
	}
	written := map[string]bool{}
	for _, o := range stepOutputs(&cliReport{Report: &judge.Report{}}, &Inputs{}, "/ws", "") {
		written[o.Name] = true
	}
	if got, want := keys(written), keysOf(m.Outputs); got != want {
		t.Errorf("the entrypoint writes outputs %s; action.yml declares %s", got, want)
	}
	if m.Runs.Using != "docker" || m.Runs.Image != "Dockerfile" || strings.Join(m.Runs.Args, " ") != "action" {
		t.Errorf("runs: %+v", m.Runs)
	}
	if m.Inputs["token"].Default != "${{ github.token }}" || m.Inputs["fail-on"].Default != "must" {
		t.Errorf("defaults: token %q, fail-on %q", m.Inputs["token"].Default, m.Inputs["fail-on"].Default)
	}
}

func keys(m map[string]bool) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func keysOf[V any](m map[string]V) string {
	set := map[string]bool{}
	for k := range m {
		set[k] = true
	}
	return keys(set)
}

// action.yml passes @action-validator/cli, the schema check of action
// metadata.
func TestActionMetadataValidates(t *testing.T) {
	node := peers.Require(t)
	cli := peers.Module("@action-validator/cli", "cli.mjs")
	if out, err := exec.Command(node, cli, repoFile("action.yml")).CombinedOutput(); err != nil {
		t.Errorf("action-validator: %v\n%s", err, out)
	}
}
