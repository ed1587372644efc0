package cmd

import (
	"context"
	"math"
	"time"

	"github.com/spf13/cobra"

	"jobtop/jobfile"
	"jobtop/jobs"
)

// This file holds what bounds an instance's life and what it keeps: the
// flags for finished jobs and old session logs, and the idle exit of an
// auto-started serve.

// autoIdleExit is how long a serve that `jobtop run` started waits, with
// no job and no client, before it exits.
const autoIdleExit = 30 * time.Minute

// addRetentionFlags adds the flags that bound what an instance keeps.
func addRetentionFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Var(newDecimalUint(new(uint), jobs.DefaultKeepFinished), "keep-finished", "keep at most `N` finished jobs, a job file's not counted (they all stay); past it the oldest are removed, their logs left on disk (0: keep all)")
	f.Var(newDecimalUint(new(uint), jobs.DefaultKeepSessions), "log-keep-sessions", "on start, keep the logs of the newest `N` sessions, this one included (0: no limit; job file: log.keep_sessions)")
	f.String("log-max-total", "2GiB", "on start, remove the oldest sessions' logs past `SIZE` in all (0: no limit; job file: log.max_total)")
}

// retentionOptions sets opts from the retention flags given on the
// command line; they beat the job file, which fills what they leave zero.
// The counts are unsigned flags: a negative one is refused as the command
// line is read (exit 2), not taken as "no limit".
func retentionOptions(cmd *cobra.Command, opts jobs.Options) (jobs.Options, error) {
	f := cmd.Flags()
	noLimit := func(n int) int {
		if n <= 0 {
			return -1
		}
		return n
	}
	count := func(name string) int {
		n, _ := f.GetUint(name)
		return int(min(n, math.MaxInt32))
	}
	if f.Changed("keep-finished") {
		opts.KeepFinished = noLimit(count("keep-finished"))
	}
	if f.Changed("log-keep-sessions") {
		opts.Sessions.Sessions = noLimit(count("log-keep-sessions"))
	}
	if f.Changed("log-max-total") {
		s, _ := f.GetString("log-max-total")
		n, err := jobfile.ParseSize(s)
		if err != nil {
			return opts, usageErrorf("--log-max-total: %v", err)
		}
		opts.Sessions.MaxTotal = int64(noLimit(int(min(n, 1<<62))))
	}
	return opts, nil
}

// idleWhen returns a channel closed once the instance has been idle for
// after: no job running, queued or waiting to restart, and no client
// connected. after 0 means never (a nil channel). ctx ends the watch.
func idleWhen(ctx context.Context, in *servedInstance, after time.Duration) <-chan struct{} {
	if after <= 0 {
		return nil
	}
	idle := make(chan struct{})
	tick := min(max(after/10, 50*time.Millisecond), 30*time.Second)
	go func() {
		t := time.NewTicker(tick)
		defer t.Stop()
		var since time.Time // when the instance was last seen busy turning idle
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				clients, _ := in.srv.Clients()
				switch {
				case clients > 0 || !in.mgr.Idle():
					since = time.Time{}
				case since.IsZero():
					since = now
				case now.Sub(since) >= after:
					close(idle)
					return
				}
			}
		}
	}()
	return idle
}
