// Package provenance describes what produced a report: the machine's
// toolchains, the git state of a file, and the server as it named itself.
package provenance

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// GitState is the commit a file lies at and whether its work tree had
// changes; empty when the file is in no git work tree.
type GitState struct {
	Commit string `json:"commit,omitempty"`
	Dirty  bool   `json:"dirty,omitempty"`
}

// ServerIdentity is how the server named itself in initialize, and the SDK
// when its serverInfo says one.
type ServerIdentity struct {
	Name            string `json:"name,omitempty"`
	Version         string `json:"version,omitempty"`
	ProtocolVersion string `json:"protocol_version,omitempty"`
	SDK             string `json:"sdk,omitempty"`
}

// IdentifyServer reads the server's identity from its initialize result,
// or from a 2026-07-28 server/discover result (serverInfo in _meta).
func IdentifyServer(result json.RawMessage) ServerIdentity {
	type info struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	var res struct {
		ProtocolVersion   string   `json:"protocolVersion"`
		SupportedVersions []string `json:"supportedVersions"`
		ServerInfo        info     `json:"serverInfo"`
		Meta              struct {
			ServerInfo info `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
	}
	if json.Unmarshal(result, &res) != nil {
		return ServerIdentity{}
	}
	id := ServerIdentity{Name: res.ServerInfo.Name, Version: res.ServerInfo.Version, ProtocolVersion: res.ProtocolVersion}
	if id.Name == "" {
		id.Name, id.Version = res.Meta.ServerInfo.Name, res.Meta.ServerInfo.Version
	}
	if id.ProtocolVersion == "" && len(res.SupportedVersions) > 0 {
		id.ProtocolVersion = res.SupportedVersions[len(res.SupportedVersions)-1]
	}
	id.SDK = sdkOf(result)
	return id
}

// sdkOf names the SDK a serverInfo admits to: some SDKs say so in the
// name or in a field of their own; nothing is guessed otherwise.
func sdkOf(initialize json.RawMessage) string {
	var res struct {
		ServerInfo map[string]any `json:"serverInfo"`
	}
	if json.Unmarshal(initialize, &res) != nil {
		return ""
	}
	for _, key := range []string{"sdk", "sdkName", "implementation"} {
		if s, ok := res.ServerInfo[key].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// GitStateOf is the commit of the work tree holding path and whether
// that tree has uncommitted changes.
func GitStateOf(path string) GitState {
	dir := filepath.Dir(path)
	commit, err := gitOutput(dir, "rev-parse", "HEAD")
	if err != nil {
		return GitState{}
	}
	status, err := gitOutput(dir, "status", "--porcelain", "--untracked-files=no")
	return GitState{Commit: commit, Dirty: err == nil && status != ""}
}

func gitOutput(dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// safe.directory: in a container the checkout belongs to another user.
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "safe.directory=*", "-C", dir}, args...)...)
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// Toolchains are the versions of the runtimes a server is commonly run
// with, those this machine has: what else would explain a report that
// another machine does not reproduce.
// It asks once per process: a run that reports twice reports the same.
var Toolchains = sync.OnceValue(toolchains)

func toolchains() map[string]string {
	tools := map[string][]string{
		"node": {"node", "--version"}, "npm": {"npm", "--version"}, "python": {"python3", "--version"},
		"go": {"go", "env", "GOVERSION"}, "uv": {"uv", "--version"},
	}
	out := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, argv := range tools {
		wg.Go(func() {
			if v := toolVersion(argv); v != "" {
				mu.Lock()
				out[name] = v
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}

func toolVersion(argv []string) string {
	if _, err := exec.LookPath(argv[0]); err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}
