package image

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/action/actiontest"
	"github.com/mcpverdict/mcpverdict/internal/e2e/peers"
	"github.com/mcpverdict/mcpverdict/internal/sign/signtest"
)

// services are the stand-ins for what GitHub gives a job, on the host's
// loopback: the code-scanning API, the artifact service, and the OIDC
// token service with Sigstore (Fulcio, Rekor, a timestamp authority).
type services struct {
	api       *actiontest.GitHubAPI
	artifacts *actiontest.ArtifactService
	sigstore  *signtest.Sigstore
}

// withServices points the step at fresh stand-ins, as a job with
// permissions security-events: write and id-token: write would have.
func (s *step) withServices() *services {
	svc := &services{api: actiontest.NewGitHubAPI(s.t), artifacts: actiontest.NewArtifactService(s.t), sigstore: signtest.New(s.t)}
	s.env["GITHUB_API_URL"] = svc.api.URL
	s.env["ACTIONS_RUNTIME_TOKEN"] = svc.artifacts.Token
	s.env["ACTIONS_RESULTS_URL"] = svc.artifacts.URL
	for _, k := range []string{"ACTIONS_ID_TOKEN_REQUEST_URL", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"} {
		s.env[k] = svc.sigstore.Env(k)
	}
	s.env["MCPVERDICT_FULCIO_URL"] = svc.sigstore.Fulcio.URL
	s.env["MCPVERDICT_REKOR_URL"] = svc.sigstore.Rekor.URL
	s.env["MCPVERDICT_TSA_URL"] = svc.sigstore.TSA.URL
	s.svc = svc
	return svc
}

// expectCode fails the test, with the step's log, unless it exited code.
func (s *step) expectCode(r result, code int) {
	s.t.Helper()
	if r.code != code {
		s.t.Fatalf("the step exited %d, want %d; its log:\n%s", r.code, code, lastLines(r.log, 60))
	}
}

// expectPublished holds a step that judged something to everything the
// action promises: the outputs name reports that exist; the wire schema was
// checked, and passed unless the step expects otherwise; the SARIF passes the SARIF Multitool's SARIF and GitHub rules;
// the JUnit file parses; the ledger verifies against its head; everything
// in the output folder belongs to the runner's user, files 0644 and folders
// 0755, so a later step can read, edit and delete it.
func (s *step) expectPublished(r result) {
	s.t.Helper()
	if strings.Contains(r.log, "wire schema: not checked") {
		s.t.Errorf("the wire schema was not checked:\n%s", lastLines(r.log, 40))
	}
	if !s.wireMayFail && (!strings.Contains(r.log, "wire schema: pass") || strings.Contains(r.log, "wire schema: fail")) {
		s.t.Errorf("want the wire schema passed:\n%s", lastLines(r.log, 40))
	}
	switch r.outputs["verdict"] {
	case "pass", "pass-with-warnings", "fail", "incomplete":
	default:
		s.t.Fatalf("verdict output %q; outputs %v", r.outputs["verdict"], r.outputs)
	}
	if !strings.Contains(r.summary, "mcpverdict") {
		s.t.Errorf("the job summary does not speak of mcpverdict: %.300q", r.summary)
	}
	for _, name := range []string{"sarif", "junit", "summary", "report", "ledger", "head"} {
		if rel := r.outputs[name]; rel == "" || filepath.IsAbs(rel) {
			s.t.Errorf("output %s is %q, want a path relative to the workspace", name, rel)
		} else if _, err := os.Stat(s.inWorkspace(rel)); err != nil {
			s.t.Errorf("output %s: %v", name, err)
		}
	}
	if s.t.Failed() {
		return
	}
	if problems := peers.SarifProblems(s.t, s.inWorkspace(r.outputs["sarif"])); len(problems) > 0 {
		s.t.Errorf("sarif-multitool (SARIF and GitHub rules):\n%s", strings.Join(problems, "\n"))
	}
	if outside := peers.NotInRepository(s.t, s.inWorkspace(r.outputs["sarif"])); len(outside) > 0 {
		s.t.Errorf("SARIF results code scanning cannot place:\n%s", strings.Join(outside, "\n"))
	}
	if c := peers.JUnitCounts(s.t, s.inWorkspace(r.outputs["junit"])); c.Total == 0 {
		s.t.Errorf("the JUnit report holds no test case: %+v", c)
	}
	s.expectLedgerVerifies(r)
	s.expectOwnedByRunner(filepath.Dir(s.inWorkspace(r.outputs["report"])))
}

// expectLedgerVerifies replays the ledger with this machine's mcpverdict,
// and the head's signature when the step signed it.
func (s *step) expectLedgerVerifies(r result) {
	s.t.Helper()
	args := []string{"ledger", "verify", "--ledger", s.inWorkspace(r.outputs["ledger"]), "--expected-head", s.inWorkspace(r.outputs["head"])}
	if b := r.outputs["bundle"]; b != "" && s.svc != nil {
		root := filepath.Join(s.root, "trusted_root.json")
		if err := os.WriteFile(root, s.svc.sigstore.TrustedRoot(), 0o644); err != nil {
			s.t.Fatal(err)
		}
		args = append(args, "--bundle", s.inWorkspace(b), "--trusted-root", root,
			"--certificate-identity", signtest.Identity, "--certificate-oidc-issuer", signtest.Issuer)
	}
	if out, err := exec.Command(hostBinary, args...).CombinedOutput(); err != nil {
		s.t.Errorf("mcpverdict %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// expectOwnedByRunner walks dir: every entry is the runner's user's, files
// 0644 and folders 0755.
func (s *step) expectOwnedByRunner(dir string) {
	s.t.Helper()
	count := 0
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		count++
		st := info.Sys().(*syscall.Stat_t)
		if int(st.Uid) != s.uid || int(st.Gid) != s.gid {
			s.t.Errorf("%s belongs to %d:%d, want the runner's %d:%d", p, st.Uid, st.Gid, s.uid, s.gid)
		}
		want := os.FileMode(0o644)
		if info.IsDir() {
			want = 0o755
		}
		if info.Mode().Perm() != want {
			s.t.Errorf("%s is %v, want %v", p, info.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		s.t.Fatal(err)
	}
	if count < 5 {
		s.t.Errorf("%s holds %d entries; the step wrote less than its reports", dir, count)
	}
}

// expectServicesUsed checks the SARIF reached code scanning and the
// output folder the artifact service, both as GitHub would accept them.
func (svc *services) expectServicesUsed(t *testing.T, r result) {
	t.Helper()
	if bad := append(svc.api.Rejected(), svc.artifacts.Rejected()...); len(bad) > 0 {
		t.Errorf("the stand-ins refused requests: %v", bad)
	}
	if n := len(svc.api.Uploads()); n != 1 {
		t.Errorf("%d SARIF uploads, want 1", n)
	}
	if len(svc.artifacts.Names()) != 1 || r.outputs["artifact-id"] == "" {
		t.Errorf("artifacts %v, artifact-id %q; want one", svc.artifacts.Names(), r.outputs["artifact-id"])
	}
	if r.outputs["bundle"] == "" {
		t.Errorf("the ledger head was not signed:\n%s", lastLines(r.log, 30))
	}
}
