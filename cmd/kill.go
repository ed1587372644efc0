package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

func newKillCmd() *cobra.Command {
	return newActionCmd("kill ID", "SIGKILL a job and everything it started, now",
		`Send SIGKILL to the job's whole process group (and any descendant that
left it) at once, and return once the job has ended.`,
		func(ctx context.Context, c *control.Client, id jobs.ID) (jobs.Info, error) {
			return c.KillJob(ctx, id, true)
		})
}
