package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

func newRestartCmd() *cobra.Command {
	return newActionCmd("restart ID", "Start a new run of a job under the same ID",
		`Restart a job: stop it if it runs (with its grace rules), then start a
new run of the same command under the same ID. Returns once the new run
has started (or is queued).`,
		func(ctx context.Context, c *control.Client, id jobs.ID) (jobs.Info, error) {
			return c.RestartJob(ctx, id, true)
		})
}
