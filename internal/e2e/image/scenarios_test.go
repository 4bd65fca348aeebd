package image

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/e2e/hostile"
	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
)

// The runner's user on GitHub-hosted runners, and one of another uid, as
// self-hosted and larger runners have.
const (
	hostedUID, hostedGID = 1001, 1001
	otherUID, otherGID   = 2345, 3456
)

// The built-in example server, the action's first use, on a hosted
// runner's workspace and on one of another owner: everything published,
// the gate passed, the wire schema checked, the SARIF uploaded, the
// artifact uploaded, the ledger head signed.
func TestExampleServer(t *testing.T) {
	requireImages(t)
	for _, owner := range [][2]int{{hostedUID, hostedGID}, {otherUID, otherGID}} {
		t.Run(fmt.Sprintf("owner %d", owner[0]), func(t *testing.T) {
			s := newStep(t, owner[0], owner[1])
			svc := s.withServices()
			s.inputs["server"] = "mcpverdict example-server"
			r := s.run(runtimeTag)
			s.expectCode(r, 0)
			s.expectPublished(r)
			svc.expectServicesUsed(t, r)
			if r.outputs["verdict"] != "pass" || !strings.Contains(r.log, "wire schema: pass") {
				t.Errorf("verdict %q; the example server passes, its wire schema too:\n%s", r.outputs["verdict"], lastLines(r.log, 30))
			}
			if owner[0] == hostedUID {
				metric("action on the example server (s)", r.wall.Seconds())
			}
		})
	}
}

// A Node.js server installed in the workspace by an earlier step (npm
// install, as a repository's CI does), run through npx as the runner's
// user: the real server-everything, measured rather than gated.
func TestNodeServerInWorkspace(t *testing.T) {
	requireImages(t)
	s := newStep(t, hostedUID, hostedGID)
	s.withServices()
	const pkg = "@modelcontextprotocol/server-everything@2026.8.31"
	s.writeFile(s.inWorkspace("package.json"), `{"name": "my-mcp-server", "private": true}`+"\n")
	install := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", pkg)
	install.Dir = s.workspace()
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s: %v\n%s", pkg, err, out)
	}
	s.giveToRunner()
	s.inputs["server"] = "npx --no mcp-server-everything stdio"
	s.inputs["fail-on"] = "never"
	r := s.run(runtimeTag)
	s.expectCode(r, 0)
	s.expectPublished(r)
	if !strings.Contains(r.log, "wire schema:") || !strings.Contains(r.log, "revision 2025-11-25") {
		t.Errorf("server-everything was not judged:\n%s", lastLines(r.log, 30))
	}
	metric("action on server-everything (s)", r.wall.Seconds())
}

// A Python server from the repository: it runs as the runner's user, not
// root, and none of the runner's secrets reach it.
func TestPythonServer(t *testing.T) {
	requireImages(t)
	s := newStep(t, hostedUID, hostedGID)
	s.withServices()
	s.writeFile(s.inWorkspace("server.py"), readTestdata(t, "server.py"))
	s.inputs["server"] = "python3 server.py"
	r := s.run(runtimeTag)
	s.expectCode(r, 0)
	s.expectPublished(r)
	var seen struct {
		UID, GID int
		Secrets  []string
	}
	if err := json.Unmarshal([]byte(s.readFile(s.inWorkspace("server-env.json"))), &seen); err != nil {
		t.Fatal(err)
	}
	if seen.UID != hostedUID || seen.GID != hostedGID {
		t.Errorf("the server ran as %d:%d, want the runner's %d:%d", seen.UID, seen.GID, hostedUID, hostedGID)
	}
	if len(seen.Secrets) > 0 {
		t.Errorf("the server was given %v", seen.Secrets)
	}
}

// Traces recorded by an earlier step: conforming ones pass the gate with
// the wire schema checked; a violation fails it.
func TestTraces(t *testing.T) {
	requireImages(t)
	for _, c := range []struct {
		name   string
		traces []string
		code   int
	}{
		{"conforming", []string{"good/server-features-2025-11-25.jsonl", "good/stdio-session-2026-07-28.jsonl"}, 0},
		{"violation", []string{"violations/base-error-shape.jsonl"}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStep(t, hostedUID, hostedGID)
			s.withServices()
			s.wireMayFail = c.code != 0
			for _, tr := range c.traces {
				s.writeFile(s.inWorkspace("recorded/"+filepath.Base(tr)), readRepoFile(t, "corpus/"+tr))
			}
			s.inputs["traces"] = "recorded/*.jsonl"
			r := s.run(runtimeTag)
			s.expectCode(r, c.code)
			s.expectPublished(r)
			if c.code == 0 && strings.Count(r.log, "wire schema: pass") != len(c.traces) {
				t.Errorf("want the wire schema passed for each trace:\n%s", lastLines(r.log, 30))
			}
		})
	}
}

// A tool-annotation probe with a definition from the repository, on one
// of the probe's fixture servers: the verdicts join the outputs.
func TestProbe(t *testing.T) {
	requireImages(t)
	s := newStep(t, hostedUID, hostedGID)
	s.withServices()
	dir := "corpus/probe/fixtures/honest-readonly/"
	s.writeFile(s.inWorkspace("probe/probe.toml"), withoutExpectations(readRepoFile(t, dir+"probe.toml")))
	s.writeFile(s.inWorkspace("probe/seed.sql"), readRepoFile(t, dir+"seed.sql"))
	s.inputs["server"] = "mcpverdict probe fixture-server honest-readonly"
	s.inputs["probe"] = "probe/probe.toml"
	r := s.run(runtimeTag)
	s.expectCode(r, 0)
	s.expectPublished(r)
	if r.outputs["probe-violations"] != "0" || r.outputs["probe-reports"] == "" {
		t.Fatalf("probe outputs %q and %q:\n%s", r.outputs["probe-violations"], r.outputs["probe-reports"], lastLines(r.log, 30))
	}
	var rep struct {
		Sandbox struct {
			Available bool
			Reason    string
		}
		Tools []json.RawMessage
	}
	if err := json.Unmarshal([]byte(s.readFile(s.inWorkspace(r.outputs["probe-reports"]))), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Tools) == 0 {
		t.Errorf("the probe report holds no tool")
	}
	t.Logf("network sandbox in the container: available %v %s", rep.Sandbox.Available, rep.Sandbox.Reason)
}

// A streamable-HTTP server listening on the host, as a service container
// would: recorded through the action's proxy and judged.
func TestURL(t *testing.T) {
	requireImages(t)
	url := startExampleHTTP(t)
	s := newStep(t, hostedUID, hostedGID)
	s.withServices()
	s.inputs["url"] = url
	r := s.run(runtimeTag)
	s.expectCode(r, 0)
	s.expectPublished(r)
	if !strings.Contains(r.log, "wire schema: pass") {
		t.Errorf("the HTTP session's wire schema:\n%s", lastLines(r.log, 30))
	}
}

// A contract lockfile from the base branch that lacks a tool the server
// now has: the drift is reported and fails the step.
func TestContractDrift(t *testing.T) {
	requireImages(t)
	s := newStep(t, hostedUID, hostedGID)
	s.withServices()
	lock := s.inWorkspace("mcp-contract.json")
	if out, err := exec.Command(hostBinary, "contract", "lock", "--server", hostBinary+" example-server", "-o", lock).CombinedOutput(); err != nil {
		t.Fatalf("contract lock: %v\n%s", err, out)
	}
	s.writeFile(lock, withoutTool(t, s.readFile(lock), "add"))
	s.inputs["server"] = "mcpverdict example-server"
	s.inputs["contract"] = "mcp-contract.json"
	r := s.run(runtimeTag)
	s.expectCode(r, 1)
	s.expectPublished(r)
	if !strings.Contains(r.summary, "add") || r.outputs["verdict"] != "fail" {
		t.Errorf("verdict %q; the summary should name the added tool:\n%.2000s", r.outputs["verdict"], r.summary)
	}
}

// Bad inputs: one error annotation naming the problem, exit 2, and no
// verdict output.
func TestBadInputs(t *testing.T) {
	requireImages(t)
	for _, c := range []struct {
		name   string
		inputs map[string]string
		says   string
	}{
		{"nothing to check", map[string]string{}, "nothing to check"},
		{"a glob matching nothing", map[string]string{"traces": "recorded/*.jsonl"}, "matches no file"},
		{"an unknown fail-on", map[string]string{"server": "mcpverdict example-server", "fail-on": "sometimes"}, "fail-on"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStep(t, hostedUID, hostedGID)
			for k, v := range c.inputs {
				s.inputs[k] = v
			}
			r := s.run(runtimeTag)
			s.expectCode(r, 2)
			var errors []string
			for _, line := range strings.Split(r.log, "\n") {
				if strings.HasPrefix(line, "::error") {
					errors = append(errors, line)
				}
			}
			if len(errors) != 1 || !strings.Contains(errors[0], c.says) {
				t.Errorf("want one error annotation saying %q, got %q", c.says, errors)
			}
			if v, ok := r.outputs["verdict"]; ok {
				t.Errorf("a verdict output (%q) for bad inputs", v)
			}
		})
	}
}

// The judge image, its own non-root user, validates a trace mounted
// read-only with the baked-in schemas.
func TestJudgeImage(t *testing.T) {
	requireImages(t)
	dir := filepath.Join(repoRoot(), "corpus", "good")
	out, err := docker("run", "--rm", "--network", "none", "-v", dir+":/traces:ro", judgeTag, "validate", "/traces/server-features-2025-11-25.jsonl")
	if err != nil || !strings.Contains(out, "wire schema: pass") || !strings.Contains(out, "verdict: pass") {
		t.Errorf("judge validate: %v\n%s", err, out)
	}
	// The context has no .git: the commit is the build argument's.
	if commit := os.Getenv("MCPVERDICT_IMAGE_COMMIT"); commit != "" {
		out, err := docker("run", "--rm", judgeTag, "--version")
		if err != nil || !strings.Contains(out, "(commit "+commit+",") {
			t.Errorf("judge --version: %v\n%s\nwant commit %s", err, out, commit)
		}
	}
	user, err := docker("image", "inspect", "--format", "{{.Config.User}}", judgeTag)
	if err != nil || user != "nonroot:nonroot" {
		t.Errorf("the judge image's user is %q (%v), want nonroot:nonroot", user, err)
	}
}

// startExampleHTTP runs this machine's mcpverdict example server on
// loopback until the test ends and returns its endpoint.
func startExampleHTTP(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(hostBinary, "example-server", "--http", peers.FreeLoopbackAddr(t))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			urls <- strings.TrimSpace(sc.Text())
		}
	}()
	select {
	case url := <-urls:
		return url
	case <-time.After(20 * time.Second):
		t.Fatal("the example server printed no URL in 20 s")
	}
	return ""
}

// withoutTool drops a tool from a contract lockfile, as the lock of a base
// branch that did not have it yet.
func withoutTool(t *testing.T, lock, name string) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(lock), &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"tools", "annotations"} {
		list, _ := doc[key].([]any)
		kept := list[:0]
		for _, e := range list {
			m, _ := e.(map[string]any)
			if m["name"] != name && m["tool"] != name {
				kept = append(kept, e)
			}
		}
		if len(kept) == len(list) {
			t.Fatalf("the lock's %s hold no %s", key, name)
		}
		doc[key] = kept
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out) + "\n"
}

// withoutExpectations drops a fixture definition's [tools.expected] tables,
// the fixture's recorded truth, which a user's own definition does not
// hold.
func withoutExpectations(def string) string {
	var out []string
	skipping := false
	for _, line := range strings.Split(def, "\n") {
		if header := strings.TrimSpace(line); strings.HasPrefix(header, "[") {
			skipping = header == "[tools.expected]"
		}
		if !skipping {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	return readRepoFile(t, filepath.Join("internal", "e2e", "image", "testdata", name))
}

func readRepoFile(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A server that attacks the log: in the real image, as the runner reads
// the step's output, nothing it sends becomes a workflow command (the log
// holds the action's own groups, the stop of commands around the command
// line's output and the annotations, nothing else), no raw control byte
// reaches the log or the job summary, and every report stays valid.
func TestHostileServer(t *testing.T) {
	requireImages(t)
	s := newStep(t, hostedUID, hostedGID)
	s.withServices()
	for name, text := range hostile.Files(t) {
		s.writeFile(s.inWorkspace("server/"+name), text)
	}
	s.inputs["server"] = "node server/hostile.cjs"
	s.wireMayFail = true
	s.inputs["fail-on"] = "never"
	r := s.run(runtimeTag)
	s.expectCode(r, 0)
	s.expectPublished(r)
	hostile.CheckCommands(t, "the step's log", []byte(r.log), "group", "endgroup", "stop-commands", "resume", "error", "warning", "notice")
	if n := strings.Count(strings.Join(hostile.Commands([]byte(r.log)), " "), "stop-commands"); n != 1 {
		t.Errorf("%d stop-commands in the log, want the action's one", n)
	}
	hostile.CheckVisible(t, "the step's log", []byte(r.log))
	hostile.CheckVisible(t, "the job summary", []byte(r.summary))
	for name, v := range r.outputs {
		hostile.CheckVisible(t, "output "+name, []byte(v))
	}
	dir := filepath.Dir(s.inWorkspace(r.outputs["report"]))
	hostile.CheckXML(t, "junit.xml", []byte(s.readFile(filepath.Join(dir, "junit.xml"))))
	hostile.CheckJSON(t, "report.json", []byte(s.readFile(filepath.Join(dir, "report.json"))))
	hostile.CheckVisible(t, "report.txt", []byte(s.readFile(filepath.Join(dir, "report.txt"))))
}
