package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

// rmAction is jobtop rm.
var rmAction = action{
	name:  "rm",
	short: "Remove finished jobs from the list",
	long: `Forget a finished job: it leaves the list (its log file stays on disk).
A job that still runs must be stopped first. --finished (or jobtop clean)
removes every job that has ended.`,
	verb:     control.BulkRemove,
	done:     "removed",
	finished: true,
	one: func(ctx context.Context, c *control.Client, id jobs.ID) (jobs.Info, bool, error) {
		info, err := c.RemoveJob(ctx, id)
		return info, false, err
	},
}

func newRmCmd() *cobra.Command {
	return newActionCmd(rmAction)
}

func newCleanCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "clean",
		Short: "Remove every job that has ended",
		Long: `Remove every job that has ended (succeeded, failed, killed, timed_out or
error) from the list, as jobtop rm --finished does; their log files stay
on disk. Jobs that run, wait or were never started are left alone.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return actOnMany(cmd, rmAction, nil, selectOptions{finished: true, json: asJSON})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"jobs", "skipped", "failed", "removed"} as JSON`)
	return cmd
}
