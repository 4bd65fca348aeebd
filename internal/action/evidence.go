package action

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/mcpverdict/mcpverdict/internal/sign"
)

// The evidence check leaves in the output directory: the run's ledger, its
// head, and the head's Sigstore bundle when it was signed.
const (
	ledgerFile = "ledger.ndjson"
	headFile   = "ledger.head"
	bundleFile = headFile + ".sigstore.json"
)

// signHead signs the ledger head check left, as the sign input says: auto
// signs when the job can have an OIDC token and says why not otherwise (a
// fork's pull request, no id-token: write), true must sign. It returns
// whether signing failed in a way that fails the step.
func (r *runner) signHead(ctx context.Context) (failed bool) {
	head := filepath.Join(r.in.OutputDir, headFile)
	if _, err := os.Stat(head); err != nil {
		if r.in.Sign == sign.ModeAlways {
			r.log.error("sign is true but the run wrote no ledger head (%s)", head)
			return true
		}
		return false
	}
	_, notice, err := sign.SignRun(ctx, sign.RunOptions{
		Mode: r.in.Sign, Ledger: filepath.Join(r.in.OutputDir, ledgerFile), HeadFile: head,
		Version: moduleVersion(), Getenv: r.env.Getenv, HTTP: r.env.HTTP, Sigstore: sign.InstancesFromEnv(r.env.Getenv),
	})
	switch {
	case notice != "":
		r.log.notice("%s", notice)
	case err != nil && r.in.Sign == sign.ModeAlways:
		r.log.error("could not sign the ledger head: %v", err)
		return true
	case err != nil:
		r.log.warning("the ledger head was not signed: %v", err)
	}
	return false
}

// evidenceOutputs are the ledger, head and bundle outputs: each the file's
// path relative to the workspace, or empty when the run did not write it.
func evidenceOutputs(in *Inputs, workspace string) []Output {
	var out []Output
	for _, o := range []struct{ name, file string }{{"ledger", ledgerFile}, {"head", headFile}, {"bundle", bundleFile}} {
		p := filepath.Join(in.OutputDir, o.file)
		if _, err := os.Stat(p); err != nil {
			p = ""
		} else {
			p = relTo(workspace, p)
		}
		out = append(out, Output{o.name, p})
	}
	return out
}

func moduleVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
