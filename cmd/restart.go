package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

func newRestartCmd() *cobra.Command {
	return newActionCmd(action{
		name:  "restart",
		short: "Start a new run of jobs under the same IDs",
		long: `Restart a job: stop it if it runs (with its grace rules), then start a
new run of the same command under the same ID. Returns once the new run
has started (or is queued).`,
		verb: control.BulkRestart,
		done: "restarted",
		one: func(ctx context.Context, c *control.Client, id jobs.ID) (jobs.Info, bool, error) {
			info, err := c.RestartJob(ctx, id, true)
			return info, false, err
		},
	})
}
