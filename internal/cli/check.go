package cli

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/driver"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/probe"
	"github.com/mcpverdict/mcpverdict/internal/progress"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

type checkFlags struct {
	judgeFlags
	server      string
	url         string
	client      string
	outDir      string
	call        string
	stepTimeout time.Duration
	probe       bool
	evidence    evidenceFlags
	// probeDefs are the tool-annotation probe definitions to run after
	// the sessions (--probe), with probeAttempts concurrent attempts.
	probeDefs     []string
	probeAttempts int
	auth          authFlags
}

func (c *Command) checkCmd() *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check [--server CMD | --url URL] [--client CMD] [flags]",
		Short: "Drive a server through every capability it declares, record the session, judge it and report",
		Long: `check drives an MCP server with mcpverdict's own client through every
capability the server declares, records each session byte for byte, judges it
clause by clause and prints the report. The server is a stdio command
(--server), a streamable-HTTP endpoint (--url, recorded through a proxy on a
loopback port) or, with neither, the example server built into mcpverdict.
--client runs your own client instead of the built-in one.

With no --revision, check drives a 2025-11-25 session (initialize handshake)
and, in parallel, a 2026-07-28 one (server/discover, per-request _meta); a
server that answers server/discover as a legacy server is judged under
2025-11-25 only. --revision chooses the revisions to drive instead, from
2024-11-05 on; a server that negotiates an older revision than the one
asked for is driven and judged under the one it negotiated.

--probe DEF.toml then probes the tool annotations as 'probe run' does; the
verdicts join every report, the exit status and the ledger, and the probe's
own reports land in --out/probe/NAME/.

Everything lands in --out: each session's trace (and its .stderr), report.json
and report.txt.

` + baselineHelp + exitcode.Section(
			exitcode.Lookup(exitcode.OK),
			exitcode.Means(exitcode.Fail, "a clause failed (or warned, with --strict), or a --probe verdict is a VIOLATION or a RESET_UNVERIFIED"+failHelp),
			exitcode.Means(exitcode.Usage, "bad invocation, nothing judgeable, a server that could not be driven (1 if a clause failed too), a --probe definition that does not load or whose server does not start, or an output that could not be written"),
			exitcode.Means(exitcode.Malformed, "a recorded trace that could not be read whole: the report names the file, line and problem, and its verdict reads incomplete"),
		),
		Example: `  mcpverdict check
  mcpverdict check --server "npx -y @modelcontextprotocol/server-everything"
  mcpverdict check --url http://127.0.0.1:3000/mcp --probe-rejections
  mcpverdict check --server "python server.py" --call all --party server
  mcpverdict check --client "node my-client.js"
  mcpverdict check --baseline base/report.json --fail-on new`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.runCheck(cmd.Context(), &f, startRun(cmd))
		},
	}
	f.judgeFlags.register(cmd)
	f.evidence.register(cmd)
	fl := cmd.Flags()
	fl.Lookup("output").Usage = "also write the report in --format to FILE"
	fl.Lookup("revision").Usage = "drive a session of this revision (repeatable: " + driver.Legacy + ", " + driver.Modern + "); default: both, the second only if the server speaks it"
	fl.StringVar(&f.server, "server", "", "the stdio server command to check (default: the built-in example server)")
	fl.StringVar(&f.url, "url", "", "the streamable-HTTP endpoint to check, recorded through a proxy on a loopback port")
	fl.StringVar(&f.client, "client", "", "run this client instead of the built-in driver; it finds the server in $MCP_SERVER_COMMAND (stdio) or $MCP_SERVER_URL (HTTP)")
	fl.StringVar(&f.outDir, "out", "mcpverdict-out", "directory for the traces and reports")
	fl.StringVar(&f.call, "call", "read-only", "which tools to call: read-only (declared readOnlyHint: true), all, none")
	fl.DurationVar(&f.stepTimeout, "step-timeout", 10*time.Second, "how long one request may take before it is cancelled; a server that then misses a ping too counts as hung")
	fl.BoolVar(&f.probe, "probe-rejections", false, "also send, each in a session of its own, what a conforming client never sends, and judge how the server rejects it")
	fl.StringArrayVar(&f.probeDefs, "probe", nil, "after the sessions, probe the tool annotations as this definition says (mcpverdict probe run); its verdicts join the reports, the exit status and the ledger; repeatable")
	fl.StringVar(&f.auth.token, "auth-token", "", "with --url: send this bearer token in the Authorization header of every request (never recorded); prefer --auth-token-env")
	fl.StringVar(&f.auth.tokenEnv, "auth-token-env", "", "with --url: send the bearer token held in this environment variable")
	fl.IntVar(&f.probeAttempts, "probe-attempts", probe.DefaultConcurrentAttempts, "with --probe: concurrent attempts per mode for each tool declaring idempotentHint: true")
	return cmd
}

func (c *Command) runCheck(ctx context.Context, f *checkFlags, start runStart) error {
	opts, err := c.judgeOptions(&f.judgeFlags)
	if err != nil {
		return err
	}
	revisions, err := driveRevisions(f.revisions)
	if err != nil {
		return err
	}
	opts.Revisions = nil // each session is judged under the revision it negotiated
	dopts, err := driverOptions(f)
	if err != nil {
		return err
	}
	t, err := c.checkTarget(f)
	if err != nil {
		return err
	}
	hp, err := loadHintProbes(f.probeDefs, f.probeAttempts)
	if err != nil {
		return err
	}
	p := progress.New(c.Stderr)
	defer p.Close()
	var sessions []*session
	if f.client != "" {
		sessions = []*session{c.runUserClient(ctx, t, f, p)}
	} else {
		sessions = c.driveAll(ctx, t, revisions, dopts, f.outDir, p)
	}
	if f.probe && f.client == "" {
		sessions = append(sessions, c.probeAll(ctx, t, probeRevisions(revisions, sessions), dopts, f.outDir, p)...)
	}
	hp.run(ctx, c, f)
	return c.judgeSessions(sessions, hp, opts, f, p, start)
}

// driveRevisions checks that each --revision is one the driver speaks:
// the stateless one, or any the registry knows with a handshake.
func driveRevisions(revisions []string) ([]string, error) {
	for _, r := range revisions {
		if r != driver.Modern && (!spec.KnownRevision(r) || r > driver.Legacy) {
			return nil, exitcode.New(exitcode.Usage, "check drives revision %s, not %q", strings.Join(spec.Revisions, ", "), r)
		}
	}
	return revisions, nil
}

func driverOptions(f *checkFlags) (driver.Options, error) {
	policy, err := callPolicy(f.call)
	if err != nil {
		return driver.Options{}, err
	}
	if f.stepTimeout <= 0 {
		return driver.Options{}, exitcode.New(exitcode.Usage, "--step-timeout %s is not a positive duration", f.stepTimeout)
	}
	return driver.Options{Call: policy, StepTimeout: f.stepTimeout}, nil
}

func (c *Command) checkTarget(f *checkFlags) (target, error) {
	if f.server != "" && f.url != "" {
		return nil, exitcode.New(exitcode.Usage, "--server and --url name two servers: give one")
	}
	token, err := f.auth.bearerToken(f.url)
	if err != nil {
		return nil, err
	}
	if f.url != "" {
		u, err := url.Parse(f.url)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, exitcode.New(exitcode.Usage, "--url %q is not an http:// or https:// URL", f.url)
		}
		if err := reachable(u); err != nil {
			return nil, err
		}
		return httpTarget{upstream: u, token: token}, nil
	}
	argv, err := c.serverArgv(f.server)
	if err != nil {
		return nil, err
	}
	f.serverCommand, f.exampleServer = argv, f.server == ""
	return stdioTarget{argv: argv}, nil
}

func (c *Command) serverArgv(server string) ([]string, error) {
	if server == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, exitcode.New(exitcode.Usage, "cannot find the mcpverdict binary to run its example server: %v", err)
		}
		return []string{exe, "example-server"}, nil
	}
	argv, err := splitCommand(server)
	if err != nil || len(argv) == 0 {
		return nil, exitcode.New(exitcode.Usage, "--server %q is not a command line: %v", server, err)
	}
	return argv, nil
}

func callPolicy(s string) (driver.CallPolicy, error) {
	switch p := driver.CallPolicy(s); p {
	case driver.CallReadOnly, driver.CallAll, driver.CallNone:
		return p, nil
	}
	return "", exitcode.New(exitcode.Usage, `unknown --call %q: choose "read-only", "all" or "none"`, s)
}

// driveAll drives one session per revision, in parallel. With no revision
// chosen it drives 2025-11-25 and, as an era probe, 2026-07-28.
func (c *Command) driveAll(ctx context.Context, t target, revisions []string, opts driver.Options, outDir string, p *progress.Progress) []*session {
	var list []*session
	if len(revisions) == 0 {
		list = []*session{newSession(outDir, t, driver.Legacy, ""), newSession(outDir, t, driver.Modern, "")}
		list[1].eraProbe = true
	}
	for _, rev := range revisions {
		list = append(list, newSession(outDir, t, rev, ""))
	}
	jobs := make([]func(), len(list))
	for i, s := range list {
		jobs[i] = func() { c.driveSession(ctx, t, s, opts, p) }
	}
	runConcurrently(2, jobs)
	return list
}

func newSession(outDir string, t target, revision string, probe driver.Probe) *session {
	name := fmt.Sprintf("session-%s-%s", t.transport(), revision)
	if probe != "" {
		name = fmt.Sprintf("probe-%s-%s-%s", probe, t.transport(), revision)
	}
	return &session{name: name, trace: filepath.Join(outDir, name+".jsonl"), revision: revision, probe: string(probe)}
}
