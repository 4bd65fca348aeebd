package action

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/action/actiontest"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/ledger"
	"github.com/mcpverdict/mcpverdict/internal/sign"
	"github.com/mcpverdict/mcpverdict/internal/sign/signtest"
)

// ledgerCLI is a fake command line that also leaves a ledger and its head
// in the output directory, as check does.
type ledgerCLI struct{ fakeCLI }

func (f *ledgerCLI) run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	code := f.fakeCLI.run(ctx, args, stdout, stderr)
	for i, a := range args {
		if a == "--out" {
			var buf bytes.Buffer
			w := ledger.NewWriter(&buf)
			w.Append("provenance", map[string]string{"tool": "mcpverdict"})
			w.Flush()
			os.WriteFile(filepath.Join(args[i+1], ledgerFile), buf.Bytes(), 0o644)
			os.WriteFile(filepath.Join(args[i+1], headFile), sign.HeadFileBytes(w.Head()), 0o644)
		}
	}
	return code
}

func (f *ledgerCLI) simulate(t *testing.T, configure func(*actiontest.Runner)) result {
	t.Helper()
	r := actiontest.NewRunner(t, false)
	r.SetInput("server", "node dist/index.js")
	r.SetInput("sarif-upload", "false")
	r.SetInput("artifact", "false")
	configure(r)
	var out bytes.Buffer
	code := Run(context.Background(), Env{Getenv: r.Getenv, Stdout: &out, Stderr: io.Discard, HTTP: http.DefaultClient, Run: f.run})
	return result{code: code, log: out.String(), runner: r}
}

// useSigstore points the runner's token service and signing at the stand-ins.
func useSigstore(r *actiontest.Runner, s *signtest.Sigstore) {
	for _, k := range []string{"ACTIONS_ID_TOKEN_REQUEST_URL", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"} {
		r.Set(k, s.Env(k))
	}
	r.Set(sign.EnvFulcioURL, s.Fulcio.URL)
	r.Set(sign.EnvRekorURL, s.Rekor.URL)
	r.Set(sign.EnvTSAURL, s.TSA.URL)
}

func TestTheActionSignsTheHeadAndSaysWhere(t *testing.T) {
	s := signtest.New(t)
	cli := &ledgerCLI{fakeCLI{rep: report(judge.VerdictPass)}}
	res := cli.simulate(t, func(r *actiontest.Runner) {
		useSigstore(r, s)
		r.SetInput("contract", "mcp-contract.json")
	})
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.log)
	}
	out := res.runner.Outputs(t)
	if out["ledger"] != "mcpverdict-out/ledger.ndjson" || out["head"] != "mcpverdict-out/ledger.head" || out["bundle"] != "mcpverdict-out/ledger.head.sigstore.json" {
		t.Fatalf("outputs %v", out)
	}
	if !strings.Contains(strings.Join(cli.args, " "), "--contract "+string(filepath.Separator)) {
		t.Errorf("the contract input is not passed on: %v", cli.args)
	}
	ws := res.runner.Getenv("GITHUB_WORKSPACE")
	bundle, _ := os.ReadFile(filepath.Join(ws, out["bundle"]))
	head, _ := sign.ReadHeadFile(filepath.Join(ws, out["head"]))
	rootPath := filepath.Join(t.TempDir(), "root.json")
	os.WriteFile(rootPath, s.TrustedRoot(), 0o644)
	tr, _ := sign.LoadTrustedRoot(rootPath)
	if _, err := sign.Verify(bundle, sign.VerifyOptions{Head: head, TrustedRoot: tr, Identity: signtest.Identity, Issuer: signtest.Issuer}); err != nil {
		t.Fatal(err)
	}
}

func TestWithoutATokenSigningIsSkippedOrFails(t *testing.T) {
	cli := &ledgerCLI{fakeCLI{rep: report(judge.VerdictPass)}}
	noToken := func(r *actiontest.Runner) {
		r.Unset("ACTIONS_ID_TOKEN_REQUEST_URL")
		r.Unset("ACTIONS_ID_TOKEN_REQUEST_TOKEN")
	}
	res := cli.simulate(t, noToken)
	if res.code != 0 || !strings.Contains(res.log, "::notice") || !strings.Contains(res.log, "id-token: write") {
		t.Errorf("auto: exit %d\n%s", res.code, res.log)
	}
	if out := res.runner.Outputs(t); out["bundle"] != "" || out["head"] == "" {
		t.Errorf("outputs %v", out)
	}
	res = cli.simulate(t, func(r *actiontest.Runner) { noToken(r); r.SetInput("sign", "true") })
	if res.code != 2 || !strings.Contains(res.log, "could not sign the ledger head") {
		t.Errorf("true: exit %d\n%s", res.code, res.log)
	}
	res = cli.simulate(t, func(r *actiontest.Runner) { r.SetInput("sign", "sometimes") })
	if res.code != 2 || !strings.Contains(res.log, "input sign") {
		t.Errorf("bad sign input: exit %d\n%s", res.code, res.log)
	}
}
