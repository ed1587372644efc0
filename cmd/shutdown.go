package cmd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
)

// instanceExitTimeout bounds how long shutdown waits for the instance to
// close its socket once its jobs have ended.
const instanceExitTimeout = 15 * time.Second

func newShutdownCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "shutdown",
		Short: "Stop every job of the instance, then the instance",
		Long: `Stop every job of the jobtop instance on the socket with its grace rules
(as SIGTERM to jobtop serve does, or quitting its TUI with y), then end
the instance. Returns once the jobs have ended and the instance has let
go of the socket, so a new one can take it at once. Asked while the
instance still loads its job file or starts its jobs (a file of
thousands takes seconds), it ends the start at once: the jobs not
started yet never start, and those that did are stopped.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return shutdown(cmd, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"instance", "stopped", "queued", "jobs"} as JSON`)
	return cmd
}

func shutdown(cmd *cobra.Command, asJSON bool) error {
	c := newClient(cmd) // over ssh, the poll below must not start a new one
	defer c.Close()
	resp, err := c.Shutdown(cmd.Context())
	if err != nil {
		return err
	}
	if err := waitInstanceGone(cmd.Context(), c, resp.Instance.PID); err != nil {
		return err
	}
	if asJSON {
		return printJSON(cmd.OutOrStdout(), resp)
	}
	// Queued jobs never ran: they are no jobs stopped.
	queued := ""
	if resp.Queued > 0 {
		queued = fmt.Sprintf(", %s never started", plural(resp.Queued, "queued job"))
	}
	fmt.Fprintf(cmd.OutOrStdout(), "jobtop %s (pid %d) shut down; %s stopped%s\n",
		resp.Instance.Kind, resp.Instance.PID, plural(resp.Stopped, "job"), queued)
	return nil
}

// waitInstanceGone polls, with a deadline, until nothing answers on the
// socket: the instance has closed it and let go of its lock.
func waitInstanceGone(ctx context.Context, c *control.Client, pid int) error {
	deadline := time.Now().Add(instanceExitTimeout)
	probeTimeout := time.Second
	if c.Host() != nil {
		probeTimeout = attachTimeout // each probe is an ssh connection
	}
	for {
		probe, cancel := context.WithTimeout(ctx, probeTimeout)
		_, err := c.Instance(probe)
		cancel()
		var notRunning *control.NotRunningError
		if errors.As(err, &notRunning) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the instance (pid %d) stopped its jobs but still answers on its socket after %v", pid, instanceExitTimeout)
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
