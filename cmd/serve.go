package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"jobtop/jobs"
)

func newServeCmd() *cobra.Command {
	var maxRunning int
	var idleExit time.Duration
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run a headless jobtop instance in the foreground",
		Long: `Run a jobtop instance without a screen: it serves the local API on its
socket, for the CLI (jobtop run, ls, logs...) and for jobtop attach.

It runs the jobs of its job file: -f FILE, else jobtop.yaml, jobtop.yml or
a Procfile in the current directory (--no-file: none). A file with
problems is reported, every one, and nothing starts. jobtop reload
re-reads the file while it runs.

SIGINT or SIGTERM stops every job with its grace rules, then exits; a
second signal kills what is left at once. A socket that a live instance
holds is never taken over: serve exits and names that instance.

With --idle-exit DUR it also exits once it has had no job running, queued
or waiting to restart, and no client connected, for DUR; the serve that
jobtop run starts in the background does so after 30m.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serve(cmd, maxRunning, idleExit)
		},
	}
	addFileFlags(cmd)
	addRetentionFlags(cmd)
	cmd.Flags().DurationVar(&idleExit, "idle-exit", 0, "exit after `DUR` with no job running or queued and no client connected (0: never)")
	cmd.Flags().IntVar(&maxRunning, "max-running", 0, "run at most N jobs at once; the rest wait queued (default: the job file's max_parallel, else no limit)")
	return cmd
}

func serve(cmd *cobra.Command, maxRunning int, idleExit time.Duration) error {
	// The job file is checked before anything starts.
	plan, err := loadJobFile(cmd)
	if err != nil {
		return err
	}
	// Signals are caught before the socket exists, so a client that sees
	// the socket can always stop this instance cleanly.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(signals)

	in, err := startInstance(cmd, "serve", plan, jobs.Options{MaxRunning: maxRunning})
	if err != nil {
		return err
	}
	path := socketPath(cmd)
	stderr := cmd.ErrOrStderr()
	fmt.Fprintf(stderr, "jobtop: serving on %s (pid %d); logs in %s\n", path, os.Getpid(), in.mgr.LogDir())
	if plan != nil {
		fmt.Fprintf(stderr, "jobtop: running %s from %s (jobtop reload re-reads it)\n", plural(len(plan.Jobs), "job"), plan.Path)
	}

	watchCtx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	select {
	case sig := <-signals:
		fmt.Fprintf(stderr, "jobtop: %v: stopping jobs (again to kill them at once)\n", sig)
	case <-idleWhen(watchCtx, in, idleExit):
		fmt.Fprintf(stderr, "jobtop: no job and no client for %v (--idle-exit): exiting\n", idleExit)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-signals:
			cancel()
		case <-ctx.Done():
		}
	}()
	err = in.shutdown(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(stderr, "jobtop: killed the jobs that were still stopping")
	}
	return nil
}
