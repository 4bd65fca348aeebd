package peers

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// SarifMultitool returns the SARIF Multitool binary, made executable: npm
// here blocks the package's install script that would do it, and the .bin
// wrapper passes arguments through a shell, so tests call it directly.
func SarifMultitool(t testing.TB) string {
	t.Helper()
	Require(t)
	bin := filepath.Join(Dir(), "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	info, err := os.Stat(bin)
	if err != nil {
		t.Fatalf("sarif-multitool is not installed: run scripts/peers (%v)", err)
	}
	if info.Mode()&0o100 == 0 {
		if err := os.Chmod(bin, info.Mode()|0o100); err != nil {
			t.Fatalf("making %s executable: %v", bin, err)
		}
	}
	return bin
}

// Module returns the path of an installed npm package's file, for example
// Module("test-results-parser", "src/index.js").
func Module(pkg, rel string) string {
	return filepath.Join(Dir(), "node_modules", filepath.FromSlash(pkg), filepath.FromSlash(rel))
}

// multitoolConfig turns off the one rule that needs the network: SARIF2006
// resolves every URI in the file, and this machine reaches no host.
const multitoolConfig = `<?xml version="1.0" encoding="utf-8" ?>
<Properties>
  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">
    <Property Key="RuleEnabled" Value="Disabled" />
  </Properties>
</Properties>
`

// SarifProblems validates SARIF files with the multitool (one
// run: it takes seconds to start) and returns their errors and warnings;
// notes are advice, not problems.
func SarifProblems(t testing.TB, paths ...string) []string {
	t.Helper()
	dir := t.TempDir()
	config := filepath.Join(dir, "multitool.xml")
	if err := os.WriteFile(config, []byte(multitoolConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "validation.sarif")
	args := append([]string{"validate", "--rule-kind", "Gh;Sarif", "--level", "Error;Warning", "-c", config, "-o", out}, paths...)
	cmd := exec.Command(SarifMultitool(t), args...)
	// The multitool is a .NET program: without ICU it needs invariant mode.
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sarif-multitool validate: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Arguments []string `json:"arguments"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("the multitool's own log: %v", err)
	}
	var problems []string
	for _, r := range log.Runs {
		for _, res := range r.Results {
			if res.Level != "note" && res.Level != "none" {
				file := "?"
				if len(res.Locations) > 0 {
					file = res.Locations[0].PhysicalLocation.ArtifactLocation.URI
				}
				problems = append(problems, fmt.Sprintf("%s: %s %s %v", file, res.Level, res.RuleID, res.Message.Arguments))
			}
		}
	}
	return problems
}

// JUnit is what a real JUnit consumer, test-results-parser (as CI
// reporting tools use it), reads from a file: its total leaves out skipped
// cases and Failed counts failures, errors apart.
type JUnit struct {
	Total, Passed, Failed, Errors, Skipped int
}

const parseJUnitScript = `
const {parse} = require(process.argv[1]);
const r = parse({type: "junit", files: [process.argv[2]]});
console.log(JSON.stringify({Total: r.total, Passed: r.passed, Failed: r.failed, Errors: r.errors, Skipped: r.skipped}));
`

// JUnitCounts parses a JUnit XML file with test-results-parser; a file it
// cannot read fails the test.
func JUnitCounts(t testing.TB, path string) JUnit {
	t.Helper()
	node := Require(t)
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, "-e", parseJUnitScript, Module("test-results-parser", ""), abs).Output()
	if err != nil {
		t.Fatalf("test-results-parser on %s: %v", path, err)
	}
	var c JUnit
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatalf("%s: %s", err, out)
	}
	return c
}

// NotInRepository lists the results of a SARIF file that code scanning
// cannot place on a pull request: a result whose first location is not a
// relative path under %SRCROOT% (the repository), or a related location
// that is not.
func NotInRepository(t testing.TB, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type location struct {
		PhysicalLocation *struct {
			ArtifactLocation struct {
				URI       string `json:"uri"`
				URIBaseID string `json:"uriBaseId"`
			} `json:"artifactLocation"`
		} `json:"physicalLocation"`
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID           string     `json:"ruleId"`
				Locations        []location `json:"locations"`
				RelatedLocations []location `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	inRepo := func(l location) bool {
		if l.PhysicalLocation == nil {
			return false
		}
		a := l.PhysicalLocation.ArtifactLocation
		return a.URIBaseID == "%SRCROOT%" && a.URI != "" && !strings.Contains(a.URI, ":") &&
			!strings.HasPrefix(a.URI, "/") && !strings.HasPrefix(a.URI, "../") && a.URI != ".."
	}
	var out []string
	for _, run := range log.Runs {
		for i, res := range run.Results {
			if len(res.Locations) == 0 || !inRepo(res.Locations[0]) {
				out = append(out, fmt.Sprintf("result %d (%s): location %+v is not in the repository", i, res.RuleID, res.Locations))
			}
			for _, rel := range res.RelatedLocations {
				if !inRepo(rel) {
					out = append(out, fmt.Sprintf("result %d (%s): related location %+v is not in the repository", i, res.RuleID, rel))
				}
			}
		}
	}
	return out
}
