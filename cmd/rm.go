package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

func newRmCmd() *cobra.Command {
	return newActionCmd("rm ID", "Remove a finished job from the list",
		`Forget a finished job: it leaves the list (its log file stays on disk).
A job that still runs must be stopped first.`,
		func(ctx context.Context, c *control.Client, id jobs.ID) (jobs.Info, error) {
			return c.RemoveJob(ctx, id)
		})
}
