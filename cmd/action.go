package cmd

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

// newActionCmd builds stop, kill, restart and rm: act on one job, wait
// until the action has taken effect, print the job's resulting state.
func newActionCmd(use, short, long string, act func(ctx context.Context, c *control.Client, id jobs.ID) (jobs.Info, error)) *cobra.Command {
	var asJSON bool
	cmd := jobCommand(use, short, long, func(cmd *cobra.Command, c *control.Client, id jobs.ID) error {
		info, err := act(cmd.Context(), c, id)
		if err != nil {
			return err
		}
		if asJSON {
			return printJSON(cmd.OutOrStdout(), info)
		}
		printOutcome(cmd.OutOrStdout(), cmd.Name(), info)
		return nil
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the job as JSON")
	return cmd
}

// printOutcome writes one line: "job 3 (web): killed by SIGTERM".
func printOutcome(w io.Writer, verb string, j jobs.Info) {
	state := string(j.State)
	switch {
	case verb == "rm":
		state = "removed"
	case j.State == jobs.StateRunning:
		state = fmt.Sprintf("running (pid %d, run %d)", j.PID, j.Runs)
	case j.State.Done() && exitText(j) != "-":
		state += " (" + exitText(j) + ")"
	}
	fmt.Fprintf(w, "job %d (%s): %s\n", j.ID, truncate(j.Name, 40), state)
}
