package provenance

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
)

// GitTopLevel is the top of the git work tree around dir, or "".
func GitTopLevel(dir string) string {
	out, err := exec.Command("git", "-c", "safe.directory=*", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// WorkflowPath takes the workflow file out of GITHUB_WORKFLOW_REF
// ("owner/repo/.github/workflows/ci.yml@refs/heads/main").
func WorkflowPath(ref string) string {
	ref, _, _ = strings.Cut(ref, "@")
	if i := strings.Index(ref, "/.github/"); i >= 0 {
		return ref[i+1:]
	}
	return ""
}

// ServerName reads the serverInfo name from the first initialize result
// in the first lines of a trace.
func ServerName(tracePath string) string {
	// A pipe's trace was read once already; it is not opened again.
	if info, err := os.Stat(tracePath); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	f, err := os.Open(tracePath)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 0; n < 50 && sc.Scan(); n++ {
		var ev struct {
			Payload struct {
				Result struct {
					ServerInfo struct{ Name string } `json:"serverInfo"`
				} `json:"result"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Payload.Result.ServerInfo.Name != "" {
			return ev.Payload.Result.ServerInfo.Name
		}
	}
	return ""
}
