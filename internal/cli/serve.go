package cli

import (
	"fmt"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcpverdict/mcpverdict/internal/exitcode"
	"github.com/mcpverdict/mcpverdict/internal/judge"
	"github.com/mcpverdict/mcpverdict/internal/serve"
)

type serveFlags struct {
	addr string
}

func (c *Command) serveCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [flags] [DIR...]",
		Short: "Show folders of recordings in a local web page: sessions, findings, search and diff",
		Long: `serve reads every trace (*.jsonl) under each DIR (default: the current
folder), judges each on its own and serves a page on this machine: the list
of sessions with their verdicts, each session as report.html shows it (its
timeline with the findings pinned to their messages), a search over methods,
ids, clause ids and text, and the diff of two sessions (messages aligned by
direction, method and id; clauses whose outcome differs).

It listens on loopback only, under a random token in the URL it prints, and
answers only requests that carry it. It reads the folders once, when it
starts, writes nothing and sends nothing anywhere. A trace with a line that
is not an event is listed as unreadable with that line; the rest are served.
It runs until interrupted.

` + exitcode.Section(
			exitcode.Means(exitcode.OK, "interrupted after serving"),
			exitcode.Means(exitcode.Usage, "a folder that cannot be read, or an address that is not loopback or cannot be bound"),
		),
		Example: `  mcpverdict serve mcpverdict-out
  mcpverdict serve --addr 127.0.0.1:8377 recordings/ mcpverdict-out/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.runServe(cmd, &f, args)
		},
	}
	cmd.Flags().StringVar(&f.addr, "addr", "127.0.0.1:0", "loopback address to listen on (port 0 picks a free one)")
	return cmd
}

func (c *Command) runServe(cmd *cobra.Command, f *serveFlags, dirs []string) error {
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	if err := serve.Loopback(f.addr); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	sessions, err := serve.Catalog(dirs, judge.Options{Version: Version()})
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	srv, err := serve.New(sessions)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	l, err := serve.Listen(f.addr)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	for _, s := range sessions {
		if s.Unreadable != "" {
			fmt.Fprintf(c.Stderr, "mcpverdict: %s: unreadable: %s\n", s.Name, s.Unreadable)
		}
	}
	fmt.Fprintf(c.Stderr, "mcpverdict: serving %d sessions; open %s (Ctrl-C stops)\n", len(sessions), srv.URL(l))
	fmt.Fprintln(c.Stdout, srv.URL(l))
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := srv.Serve(ctx, l); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	return nil
}
