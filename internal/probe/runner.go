package probe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
)

// Options shape a probe run.
type Options struct {
	// Runs is how many times each control, once and twice session runs;
	// at least (and by default) 3, so nondeterminism shows.
	Runs int
	// ConcurrentAttempts is the number of attempts per concurrency mode
	// for each tool claiming idempotence (default 20).
	ConcurrentAttempts int
	// Tools limits the probe to these cases: a tool name (all its
	// variants) or NAME[VARIANT]. Empty means every case.
	Tools []string
	// TraceDir receives the session traces; empty keeps them in a
	// temporary folder removed at the end.
	TraceDir string
	// Pool bounds the sessions running at once; nil means one per CPU.
	// Share one between runs to bound them together.
	Pool *Pool
	// Self is the mcpverdict executable: the value of {self} and the
	// network sandbox helper. Empty means os.Executable().
	Self string
	// NoSandbox runs servers without the network sandbox; open-world
	// claims are then inconclusive.
	NoSandbox bool
	// Progress, when set, is told of every session that ends (one line, no
	// newline); it is never called twice at once.
	Progress func(line string)
	// Harness names the build running the probe, for the report's
	// provenance.
	Harness string
}

// MinRuns is the fewest runs a probe accepts: nondeterminism between runs
// needs at least three to be told from a one-off.
const MinRuns = 3

// DefaultConcurrentAttempts is the attempts per mode when none are set.
const DefaultConcurrentAttempts = 20

// ErrOptions reports options that cannot be used.
var ErrOptions = errors.New("invalid probe options")

// Pool bounds how many sessions run at once.
type Pool struct{ slots chan struct{} }

// NewPool allows n sessions at once (at least one).
func NewPool(n int) *Pool { return &Pool{slots: make(chan struct{}, max(n, 1))} }

func (p *Pool) acquire() { p.slots <- struct{}{} }
func (p *Pool) release() { <-p.slots }

// Run probes every selected tool of def and returns the report. An error
// means no verdict can be claimed: bad options (ErrOptions), a definition
// that does not fit the server (a *DefError: a tool the server does not
// list, a server that does not start), or a folder that cannot be written.
func Run(ctx context.Context, def *definition.Definition, opts Options) (*Report, error) {
	r, err := newRunner(def, opts)
	if err != nil {
		return nil, err
	}
	defer r.cleanup()
	return r.run(ctx)
}

// runner is one probe run in progress.
type runner struct {
	def     *definition.Definition
	opts    Options
	cases   []definition.ToolCase
	sess    *sessionOptions
	exp     definition.Expander
	scratch string
	// template is the seeded state every session starts from a copy of.
	template string
	traceDir string
	keep     bool
	sandbox  error // why there is no sandbox, if there is none
	started  time.Time

	mu    sync.Mutex
	done  int
	total int
}

func newRunner(def *definition.Definition, opts Options) (*runner, error) {
	opts, err := withDefaults(opts)
	if err != nil {
		return nil, err
	}
	cases, err := selectCases(def, opts.Tools)
	if err != nil {
		return nil, err
	}
	r := &runner{def: def, opts: opts, cases: cases, exp: definition.Expander{Target: def.Dir, Self: opts.Self}, started: time.Now()}
	if r.scratch, err = os.MkdirTemp("", "mcpverdict-probe-"); err != nil {
		return nil, err
	}
	r.traceDir, r.keep = filepath.Join(r.scratch, "sessions"), false
	if opts.TraceDir != "" {
		r.traceDir, r.keep = opts.TraceDir, true
	}
	if err := os.MkdirAll(r.traceDir, 0o755); err != nil {
		r.cleanup()
		return nil, fmt.Errorf("cannot create %s: %w", r.traceDir, definition.UnwrapPathErr(err))
	}
	r.sess = r.sessionOptions()
	return r, nil
}

func withDefaults(o Options) (Options, error) {
	if o.Runs == 0 {
		o.Runs = MinRuns
	}
	if o.Runs < MinRuns {
		return o, fmt.Errorf("%w: --runs %d is below the minimum of %d", ErrOptions, o.Runs, MinRuns)
	}
	if o.ConcurrentAttempts == 0 {
		o.ConcurrentAttempts = DefaultConcurrentAttempts
	}
	if o.ConcurrentAttempts < 1 {
		return o, fmt.Errorf("%w: --concurrent-attempts must be at least 1", ErrOptions)
	}
	if o.Pool == nil {
		o.Pool = NewPool(runtime.NumCPU())
	}
	if o.Self == "" {
		self, err := os.Executable()
		if err != nil {
			return o, fmt.Errorf("cannot find the mcpverdict executable: %w", err)
		}
		o.Self = self
	}
	return o, nil
}

// selectCases returns the cases --tool names, in definition order.
func selectCases(def *definition.Definition, names []string) ([]definition.ToolCase, error) {
	if len(names) == 0 {
		return def.Tools, nil
	}
	var out []definition.ToolCase
	for _, t := range def.Tools {
		for _, n := range names {
			if n == t.Name || n == t.ID() {
				out = append(out, t)
				break
			}
		}
	}
	for _, n := range names {
		if !selectsAny(def.Tools, n) {
			return nil, fmt.Errorf("%w: --tool %q names no tool of %s (it has %s)", ErrOptions, n, def.Path, strings.Join(caseIDs(def.Tools), ", "))
		}
	}
	return out, nil
}

func selectsAny(cases []definition.ToolCase, name string) bool {
	for _, t := range cases {
		if name == t.Name || name == t.ID() {
			return true
		}
	}
	return false
}

func caseIDs(cases []definition.ToolCase) []string {
	out := make([]string, len(cases))
	for i, t := range cases {
		out[i] = t.ID()
	}
	return out
}

func (r *runner) sessionOptions() *sessionOptions {
	startup, call := 30*time.Second, 10*time.Second
	if d := r.def.Server.StartupTimeout.Duration; d > 0 {
		startup = d
	}
	if d := r.def.Server.CallTimeout.Duration; d > 0 {
		call = d
	}
	return &sessionOptions{
		argv: func(state string) []string { return r.exp.Argv(r.def.Server.Command, state) },
		env:  func(state string) []string { return r.exp.Env(r.def.Server.Env, state) },
		cwd: func(state string) string {
			if r.def.Server.Cwd == "" {
				return state
			}
			return r.exp.Expand(r.def.Server.Cwd, state)
		},
		startupTimeout: startup,
		callTimeout:    call,
	}
}

// cleanup removes the scratch folder: the state directories, and the
// traces unless they went to OutDir.
func (r *runner) cleanup() { os.RemoveAll(r.scratch) }

// finished counts one session done and reports it. Progress is called
// under the runner's lock, so it never runs twice at once.
func (r *runner) finished(label string, res *sessionResult) {
	status := "ok"
	if res.Err != "" {
		status = res.Err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	if r.opts.Progress != nil {
		r.opts.Progress(fmt.Sprintf("%s: [%d/%d] %s: %s", r.def.Name, r.done, r.total, label, status))
	}
}

func (r *runner) addPlanned(n int) {
	r.mu.Lock()
	r.total += n
	r.mu.Unlock()
}
