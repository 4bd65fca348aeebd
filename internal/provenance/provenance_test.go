package provenance

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestIdentifyServer(t *testing.T) {
	for _, c := range []struct {
		result string
		want   ServerIdentity
	}{
		{`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"everything","version":"2.0.0"}}`, ServerIdentity{Name: "everything", Version: "2.0.0", ProtocolVersion: "2025-11-25"}},
		{`{"supportedVersions":["2025-11-25","2026-07-28"],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"m","version":"1"}}}`, ServerIdentity{Name: "m", Version: "1", ProtocolVersion: "2026-07-28"}},
		{`{"serverInfo":{"name":"s","version":"1","sdk":"mcp-go 0.30"}}`, ServerIdentity{Name: "s", Version: "1", SDK: "mcp-go 0.30"}},
		{`[]`, ServerIdentity{}},
	} {
		if got := IdentifyServer([]byte(c.result)); got != c.want {
			t.Errorf("IdentifyServer(%s) = %+v, want %+v", c.result, got, c.want)
		}
	}
}

func TestGitStateOf(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "probe.toml")
	os.WriteFile(file, []byte("a\n"), 0o644)
	if got := GitStateOf(file); got != (GitState{}) {
		t.Fatalf("outside git: %+v, want nothing", got)
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "probe.toml")
	git("commit", "-qm", "x")
	clean := GitStateOf(file)
	if len(clean.Commit) != 40 || clean.Dirty {
		t.Errorf("committed: %+v", clean)
	}
	os.WriteFile(file, []byte("b\n"), 0o644)
	if dirty := GitStateOf(file); dirty.Commit != clean.Commit || !dirty.Dirty {
		t.Errorf("edited: %+v", dirty)
	}
}

func TestToolchainsNameGo(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	if v := Toolchains()["go"]; v == "" {
		t.Errorf("Toolchains() lacks go: %v", Toolchains())
	}
}
