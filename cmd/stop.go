package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

func newStopCmd() *cobra.Command {
	return newActionCmd(action{
		name:  "stop",
		short: "Stop jobs gracefully and wait until they have ended",
		long: `Stop a job: its stop signal (SIGTERM unless it says otherwise) to its
whole process group, then SIGKILL after its grace period (5s by default).
Returns once the job and everything it started have ended.

--signal SIG sends SIG instead, this time, SIGKILL still following the
grace: --signal INT lets a Python script's except KeyboardInterrupt and
finally blocks run. A job stopped with SIGINT every time: jobtop run
--stop-signal INT. A signal that pauses or continues a process (STOP,
TSTP, TTIN, TTOU, CONT), or that it ignores unless it catches it (URG,
CHLD), is refused, here and as a job's stop signal. To send a signal and do
nothing else (a reload, a pause), as pueue kill -s does: jobtop signal
SIG ID.`,
		verb:   control.BulkStop,
		signal: true,
		done:   "stopped",
		one: func(ctx context.Context, c *control.Client, id jobs.ID) (jobs.Info, bool, error) {
			answer, err := c.EndJob(ctx, id, "stop", true)
			return answer.Info, answer.Removed, err
		},
	})
}
