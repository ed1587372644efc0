package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

func newKillCmd() *cobra.Command {
	return newActionCmd(action{
		name:  "kill",
		short: "SIGKILL jobs and everything they started, now",
		long: `Send SIGKILL to the job's whole process group (and any descendant that
left it) at once, and return once the job has ended.`,
		verb: control.BulkKill,
		done: "killed",
		one: func(ctx context.Context, c *control.Client, id jobs.ID) (jobs.Info, bool, error) {
			answer, err := c.EndJob(ctx, id, "kill", true)
			return answer.Info, answer.Removed, err
		},
	})
}
